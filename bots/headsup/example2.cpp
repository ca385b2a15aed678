// Seed 003's example2: in every round, sample the win rate; all-in when winning beats losing.
#include "texas.h"

namespace {
int stack = 100;  // Alice's chips behind in the current hand
}

std::pair<ActionType, int> makeDecision(const State& s) {
    if (s.community[0].value == -1) stack = 100;  // a new hand starts in round 1
    if (stack == 0) return {ActionType::CHECK, 0};
    std::pair<double, double> rates = getRatesBySampling(s, 60);
    double win = rates.first, lose = 1 - rates.first - rates.second;
    if (win > lose) {
        int all = stack;
        stack = 0;
        return {ActionType::RAISE, all};
    }
    return {ActionType::CHECK, 0};
}

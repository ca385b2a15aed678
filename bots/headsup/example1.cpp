// Seed 003's example1: go all-in in the first betting round, check afterwards.
#include "texas.h"

std::pair<ActionType, int> makeDecision(const State& s) {
    if (s.community[0].value == -1) return {ActionType::RAISE, 100};
    return {ActionType::CHECK, 0};
}

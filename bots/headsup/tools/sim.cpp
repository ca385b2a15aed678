// Offline simulator for strong.cpp: plays N hands against an exact model of Bob (seed 001's rule, 100
// rollouts, ties half) with its own random decks, and prints W, its 95% CI and the CPU per hand.
// Build: g++ -O2 -std=c++17 -o /tmp/sim bots/headsup/tools/sim.cpp   Run: /tmp/sim HANDS [SEED [LEVEL]]
// It is a development aid only; the figures that count come from `arena headsup`.
#define STRONG_NO_MAIN
#include "../strong.cpp"

#include <random>

namespace {

std::mt19937_64 sim_rng;

int sim_eval(const int* two, const int* board) {
    int c[7] = {two[0], two[1], board[0], board[1], board[2], board[3], board[4]};
    return evaluate7(c, 7);
}

// Bob's decision on a raise x into pot P with `shown` board cards visible: 100 rollouts.
bool bob_calls(const int* bob, const int* board, int shown, int P, int x) {
    bool seen[52] = {false};
    seen[bob[0]] = seen[bob[1]] = true;
    for (int i = 0; i < shown; ++i) seen[board[i]] = true;
    int unseen[52], n = 0;
    for (int c = 0; c < 52; ++c)
        if (!seen[c]) unseen[n++] = c;
    int wins = 0, ties = 0;
    for (int t = 0; t < 100; ++t) {
        int need = 2 + 5 - shown;
        for (int i = 0; i < need; ++i) std::swap(unseen[i], unseen[i + sim_rng() % (n - i)]);
        int full[5];
        for (int i = 0; i < shown; ++i) full[i] = board[i];
        for (int i = shown; i < 5; ++i) full[i] = unseen[2 + i - shown];
        int a = sim_eval(unseen, full), b = sim_eval(bob, full);
        wins += b > a;
        ties += b == a;
    }
    int fp = P + 2 * x;
    return wins * fp + ties * (fp / 2) - 100 * x > 0;
}

}  // namespace

int main(int argc, char** argv) {
    int hands = argc > 1 ? std::atoi(argv[1]) : 2000;
    uint64_t deck_seed = argc > 2 ? std::atoll(argv[2]) : 1;
    sim_rng.seed(deck_seed);
    init_player(hands);
    if (argc > 3) set_level(std::atoi(argv[3]));
    double sum = 0, sum2 = 0;
    const int shown_by_round[4] = {0, 3, 4, 5};
    for (int h = 1; h <= hands; ++h) {
        int deck[52];
        for (int i = 0; i < 52; ++i) deck[i] = i;
        std::mt19937_64 deck_rng(deck_seed * 1000003ULL + h);  // decks and Bob's draws per hand: paired runs
        sim_rng.seed(deck_seed * 1000003ULL + h + 0x5bd1e995ULL);
        for (int i = 0; i < 9; ++i) std::swap(deck[i], deck[i + deck_rng() % (52 - i)]);
        HandView view;
        start_hand(h, view);
        view.alice[0] = deck[0];
        view.alice[1] = deck[1];
        for (int i = 0; i < 5; ++i) view.board[i] = deck[4 + i];
        int a = 100, P = 10, delta = 0;
        bool over = false;
        for (int r = 0; r < 4 && !over; ++r) {
            int k = shown_by_round[r];
            view.shown = k;
            view.stack = a;
            view.pot = P;
            auto [kind, x] = decide(view);
            if (kind == 1) {
                if (!bob_calls(deck + 2, deck + 4, k, P, x)) {
                    delta = a + P - 100;
                    over = true;
                } else {
                    view.raises.push_back({k, static_cast<double>(x) / (P + 2 * x)});
                    a -= x;
                    P += 2 * x;
                }
            } else if (kind == -1) {
                delta = a - 100;
                over = true;
            }
        }
        if (!over) {
            int s = sim_eval(deck, deck + 4), t = sim_eval(deck + 2, deck + 4);
            delta = a + (s > t ? P : s == t ? P / 2 : 0) - 100;
        }
        sum += delta;
        sum2 += static_cast<double>(delta) * delta;
    }
    double mean = sum / hands, sd = std::sqrt(std::max(0.0, sum2 / hands - mean * mean));
    double cpu = static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
    std::printf("W %.3f +- %.3f  cpu %.2f s  (%.3f ms/hand)\n", mean, 1.96 * sd / std::sqrt(hands), cpu,
                1000 * cpu / hands);
    return 0;
}

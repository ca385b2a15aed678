// texas_driver.cpp: runs a texas.h player (makeDecision) on the heads-up line protocol.
//
// The judge's lines go in on stdin; ACTION and RATE lines go out on the original stdout. Whatever the
// player itself prints on stdout is sent to stderr so it cannot break the protocol. getRatesBySampling
// on the state of the current decision is asked of the judge (RATE t, counted in the budget); on any
// other state (a what-if the player built) it is sampled here.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>

#include "texas.h"

namespace {

FILE* judge_out = nullptr;
State current;
bool deciding = false;

int card_index(const Card& c) { return c.color * 13 + c.value - 1; }

bool known(const Card& c) { return c.color >= 0 && c.color < 4 && c.value >= 1 && c.value <= 13; }

int straight_top(int mask) {
    for (int top = 12; top >= 4; --top) {
        int window = 0x1F << (top - 4);
        if ((mask & window) == window) return top;
    }
    return (mask & 0x100F) == 0x100F ? 3 : -1;
}

int pack(int category, const int* ranks, int n) {
    int value = category;
    for (int i = 0; i < 5; ++i) value = (value << 4) | (i < n ? ranks[i] : 0);
    return value;
}

// Strength of the best five of seven cards (indices suit*13 + rank); higher wins.
int strength(const int* cards) {
    int counts[13] = {0}, suits[4] = {0, 0, 0, 0}, any = 0;
    for (int i = 0; i < 7; ++i) {
        counts[cards[i] % 13]++;
        suits[cards[i] / 13] |= 1 << (cards[i] % 13);
        any |= 1 << (cards[i] % 13);
    }
    int r[5];
    for (int s = 0; s < 4; ++s) {
        if (__builtin_popcount(suits[s]) < 5) continue;
        int top = straight_top(suits[s]);
        if (top >= 0) return pack(8, &top, 1);
        int n = 0;
        for (int x = 12; x >= 0 && n < 5; --x)
            if (suits[s] >> x & 1) r[n++] = x;
        return pack(5, r, 5);
    }
    // Ranks ordered by (count, rank) descending.
    int order[7], n = 0;
    for (int c = 4; c >= 1; --c)
        for (int x = 12; x >= 0; --x)
            if (counts[x] == c) order[n++] = x;
    int first = counts[order[0]], second = n > 1 ? counts[order[1]] : 0;
    if (first == 4) {
        int kicker = -1;
        for (int i = 1; i < n; ++i) kicker = order[i] > kicker ? order[i] : kicker;
        r[0] = order[0];
        r[1] = kicker;
        return pack(7, r, 2);
    }
    if (first == 3 && second >= 2) {
        r[0] = order[0];
        r[1] = order[1];
        return pack(6, r, 2);
    }
    int top = straight_top(any);
    if (top >= 0) return pack(4, &top, 1);
    auto best_rest = [&](int from, int take, int* out) {
        int k = 0;
        for (int x = 12; x >= 0 && k < take; --x) {
            bool used = false;
            for (int i = 0; i < from; ++i) used |= order[i] == x;
            if (!used && counts[x]) out[k++] = x;
        }
    };
    if (first == 3) {
        r[0] = order[0];
        best_rest(1, 2, r + 1);
        return pack(3, r, 3);
    }
    if (first == 2 && second == 2) {
        r[0] = order[0];
        r[1] = order[1];
        best_rest(2, 1, r + 2);
        return pack(2, r, 3);
    }
    if (first == 2) {
        r[0] = order[0];
        best_rest(1, 3, r + 1);
        return pack(1, r, 4);
    }
    best_rest(0, 5, r);
    return pack(0, r, 5);
}

unsigned long long rng_state = 0x2545F4914F6CDD1DULL;
unsigned long long next_random() {
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1DULL;
}

std::pair<double, double> sample_locally(const State& s, int t) {
    bool used[52] = {false};
    const Card* slots[9] = {&s.alice[0], &s.alice[1], &s.bob[0], &s.bob[1], &s.community[0],
                            &s.community[1], &s.community[2], &s.community[3], &s.community[4]};
    for (const Card* c : slots)
        if (known(*c)) used[card_index(*c)] = true;
    int pool[52], n = 0;
    for (int c = 0; c < 52; ++c)
        if (!used[c]) pool[n++] = c;
    int wins = 0, ties = 0;
    for (int round = 0; round < t; ++round) {
        int cards[9], drawn = 0;
        for (int i = 0; i < 9; ++i) {
            if (known(*slots[i])) {
                cards[i] = card_index(*slots[i]);
                continue;
            }
            int j = drawn + static_cast<int>(next_random() % static_cast<unsigned long long>(n - drawn));
            std::swap(pool[drawn], pool[j]);
            cards[i] = pool[drawn++];
        }
        int alice[7] = {cards[0], cards[1], cards[4], cards[5], cards[6], cards[7], cards[8]};
        int bob[7] = {cards[2], cards[3], cards[4], cards[5], cards[6], cards[7], cards[8]};
        int a = strength(alice), b = strength(bob);
        wins += a > b;
        ties += a == b;
    }
    return {t > 0 ? static_cast<double>(wins) / t : 0.0, t > 0 ? static_cast<double>(ties) / t : 0.0};
}

bool same_card(const Card& a, const Card& b) { return a.color == b.color && a.value == b.value; }

bool is_current(const State& s) {
    for (int i = 0; i < 2; ++i)
        if (!same_card(s.alice[i], current.alice[i]) || known(s.bob[i])) return false;
    for (int i = 0; i < 5; ++i)
        if (!same_card(s.community[i], current.community[i])) return false;
    return true;
}

bool read_line(std::string& line) {
    line.clear();
    int c;
    while ((c = std::getchar()) != EOF && c != '\n') line.push_back(static_cast<char>(c));
    if (c == EOF && line.empty()) return false;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return true;
}

[[noreturn]] void finish() {
    std::fflush(stdout);
    std::_Exit(0);
}

}  // namespace

int getResult(const State& s) {
    int alice[7] = {card_index(s.alice[0]), card_index(s.alice[1])};
    int bob[7] = {card_index(s.bob[0]), card_index(s.bob[1])};
    for (int i = 0; i < 5; ++i) alice[2 + i] = bob[2 + i] = card_index(s.community[i]);
    int a = strength(alice), b = strength(bob);
    return (a > b) - (a < b);
}

std::pair<double, double> getRatesBySampling(const State& s, int t) {
    if (!deciding || !is_current(s)) return sample_locally(s, t);
    std::fprintf(judge_out, "RATE %d\n", t);
    std::fflush(judge_out);
    std::string line;
    if (!read_line(line) || line == "-1") finish();
    double w = 0, d = 0;
    if (std::sscanf(line.c_str(), "RATES %lf %lf", &w, &d) != 2) finish();
    return {w, d};
}

int main() {
    int protocol_fd = dup(1);
    dup2(2, 1);  // the player's own prints go to stderr
    judge_out = fdopen(protocol_fd, "w");
    std::string line;
    while (read_line(line)) {
        if (line == "-1" || line.rfind("SCORE", 0) == 0) break;
        if (line.rfind("STATE", 0) != 0) continue;
        std::string alice_line, board_line;
        if (!read_line(alice_line) || !read_line(board_line)) break;
        current = State();
        int c[4];
        if (std::sscanf(alice_line.c_str(), "ALICE %d %d %d %d", &c[0], &c[1], &c[2], &c[3]) != 4) break;
        current.alice[0] = Card(c[0], c[1]);
        current.alice[1] = Card(c[2], c[3]);
        const char* p = board_line.c_str() + 5;
        for (int i = 0; i < 5; ++i) {
            int suit, value, used;
            if (std::sscanf(p, " %d %d%n", &suit, &value, &used) != 2) break;
            current.community[i] = Card(suit, value);
            p += used;
        }
        deciding = true;
        std::pair<ActionType, int> decision = makeDecision(current);
        deciding = false;
        std::fflush(stdout);
        switch (decision.first) {
            case ActionType::CHECK: std::fprintf(judge_out, "ACTION CHECK\n"); break;
            case ActionType::FOLD: std::fprintf(judge_out, "ACTION FOLD\n"); break;
            case ActionType::RAISE: std::fprintf(judge_out, "ACTION RAISE %d\n", decision.second); break;
            case ActionType::CALL: std::fprintf(judge_out, "ACTION CALL %d\n", decision.second); break;
        }
        std::fflush(judge_out);
    }
    finish();
}

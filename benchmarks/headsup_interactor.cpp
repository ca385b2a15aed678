// A C++ interactor for heads-up hold'em against Bob, written to statement 001's rules: the reference
// that benchmarks/bench_headsup_cpp.py times arena's judge against.
//
//     g++ -O2 -o headsup_interactor benchmarks/headsup_interactor.cpp
//     ./headsup_interactor HANDS SEED PROGRAM [ARGS...]
//
// It starts PROGRAM with pipes on its stdin and stdout and plays HANDS hands of the line protocol
// (`G`, `STATE h r a b P k`, `ALICE ..`, `BOARD ..`, `RATE t` -> `RATES w d`, `ACTION ..`,
// `OPP ..`, `RESULT d`, `SCORE W`, `-1` on any violation). Bob calls a raise iff the mean of his
// profit over 100 rollouts (uniform permutations of the cards he cannot see, dealt to Alice's two
// cards and then to the missing board, Alice checking afterwards) beats folding; RATE samples Bob's
// two cards and the missing board from the cards Alice cannot see; the match's RATE budget is
// 3,000,000 rollouts. The random streams are its own (decks, Bob and RATE apart, each seeded from
// SEED), so its W is not arena's for the same seed, but the game and the judge's work are the same.
// On exit it prints one line on stderr: `W=... hands=... rate_used=... judge_cpu_s=... player_cpu_s=...`.
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>

extern char** environ;

namespace {

constexpr int kStack = 100;
constexpr int kDeadPot = 10;
constexpr int kBobRollouts = 100;
constexpr long kRateBudget = 3000000;
constexpr int kShown[5] = {0, 0, 3, 4, 5};  // board cards visible in rounds 1..4

// ---- random numbers: splitmix64 seeds a xoshiro256** generator per stream --------------------------

uint64_t splitmix(uint64_t& x) {
    uint64_t z = (x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

struct Rng {
    uint64_t s[4];
    explicit Rng(uint64_t seed) {
        for (auto& word : s) word = splitmix(seed);
    }
    static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    uint64_t next() {
        uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = rotl(s[3], 45);
        return result;
    }
    // Uniform in 0..n-1 (Lemire's multiply, with rejection so every value is equally likely).
    uint32_t below(uint32_t n) {
        uint64_t m = (next() >> 32) * n;
        if (static_cast<uint32_t>(m) < n) {
            uint32_t floor = -n % n;
            while (static_cast<uint32_t>(m) < floor) m = (next() >> 32) * n;
        }
        return static_cast<uint32_t>(m >> 32);
    }
};

// ---- hand strength: best five of seven, 001's order; a larger value is a better hand --------------
// Cards are suit * 13 + value - 1 (value 1..13 for 2..A), as on the wire.

int straight_high(unsigned ranks) {
    // The highest rank topping five consecutive ranks, -1 if none; A-2-3-4-5 counts with 5 high (3).
    unsigned run = ranks & (ranks << 1) & (ranks << 2) & (ranks << 3) & (ranks << 4);
    if (run) return 31 - __builtin_clz(run);
    return (ranks & 0x100F) == 0x100F ? 3 : -1;
}

int top_ranks(unsigned ranks, int n) {
    // The n highest ranks of the mask, packed four bits each, highest first.
    int packed = 0;
    for (int i = 0; i < n; ++i) {
        int r = 31 - __builtin_clz(ranks);
        packed = (packed << 4) | r;
        ranks &= ~(1u << r);
    }
    return packed;
}

int strength(const int* cards) {
    unsigned suit[4] = {0, 0, 0, 0};
    int count[13] = {0};
    for (int i = 0; i < 7; ++i) {
        int rank = cards[i] % 13;
        suit[cards[i] / 13] |= 1u << rank;
        ++count[rank];
    }
    for (unsigned mask : suit) {
        if (__builtin_popcount(mask) >= 5) {
            int high = straight_high(mask);
            if (high >= 0) return 8 << 20 | high;
            return 5 << 20 | top_ranks(mask, 5);
        }
    }
    unsigned any = 0, pairs = 0, trips = 0, quads = 0;
    for (int r = 0; r < 13; ++r) {
        if (!count[r]) continue;
        any |= 1u << r;
        if (count[r] == 2) pairs |= 1u << r;
        if (count[r] == 3) trips |= 1u << r;
        if (count[r] == 4) quads |= 1u << r;
    }
    if (quads) {
        int q = 31 - __builtin_clz(quads);
        return 7 << 20 | q << 4 | top_ranks(any & ~(1u << q), 1);
    }
    if (trips) {
        int t = 31 - __builtin_clz(trips);
        unsigned rest = (trips & ~(1u << t)) | pairs;  // a second trip plays as the pair
        if (rest) return 6 << 20 | t << 4 | (31 - __builtin_clz(rest));
    }
    int high = straight_high(any);
    if (high >= 0) return 4 << 20 | high;
    if (trips) {
        int t = 31 - __builtin_clz(trips);
        return 3 << 20 | t << 8 | top_ranks(any & ~(1u << t), 2);
    }
    if (__builtin_popcount(pairs) >= 2) {
        int hi = 31 - __builtin_clz(pairs);
        int lo = 31 - __builtin_clz(pairs & ~(1u << hi));
        return 2 << 20 | hi << 8 | lo << 4 | top_ranks(any & ~(1u << hi) & ~(1u << lo), 1);
    }
    if (pairs) {
        int p = 31 - __builtin_clz(pairs);
        return 1 << 20 | p << 12 | top_ranks(any & ~(1u << p), 3);
    }
    return top_ranks(any, 5);
}

// ---- rollouts: hero's two cards and the visible board known; deal two hidden cards and the rest ----

struct Tally {
    int wins = 0, ties = 0;
};

Tally rollouts(const int hero[2], const int* board, int shown, int samples, Rng& rng) {
    bool seen[52] = {false};
    seen[hero[0]] = seen[hero[1]] = true;
    for (int i = 0; i < shown; ++i) seen[board[i]] = true;
    int unseen[52], size = 0;
    for (int c = 0; c < 52; ++c)
        if (!seen[c]) unseen[size++] = c;
    int unknown = 2 + 5 - shown;
    int mine[7] = {hero[0], hero[1]}, theirs[7];
    for (int i = 0; i < shown; ++i) mine[2 + i] = theirs[2 + i] = board[i];
    Tally tally;
    int deck[52];
    for (int s = 0; s < samples; ++s) {
        std::memcpy(deck, unseen, sizeof(int) * size);
        for (int j = 0; j < unknown; ++j) {  // the first `unknown` places of a uniform permutation
            int k = j + static_cast<int>(rng.below(size - j));
            int t = deck[j];
            deck[j] = deck[k];
            deck[k] = t;
        }
        theirs[0] = deck[0];
        theirs[1] = deck[1];
        for (int i = shown; i < 5; ++i) mine[2 + i] = theirs[2 + i] = deck[2 + i - shown];
        int a = strength(mine), b = strength(theirs);
        tally.wins += a > b;
        tally.ties += a == b;
    }
    return tally;
}

// ---- the session -------------------------------------------------------------------------------

FILE* to_player = nullptr;
FILE* from_player = nullptr;
pid_t player = 0;

[[noreturn]] void finish(const char* why, double w, int hands, long rate_used, int status) {
    if (why != nullptr) {
        std::fprintf(to_player, "-1\n");
        std::fprintf(stderr, "fault: %s\n", why);
    }
    std::fflush(to_player);
    std::fclose(to_player);
    int wstatus = 0;
    waitpid(player, &wstatus, 0);
    rusage self{}, children{};
    getrusage(RUSAGE_SELF, &self);
    getrusage(RUSAGE_CHILDREN, &children);
    auto seconds = [](const rusage& u) {
        return u.ru_utime.tv_sec + u.ru_stime.tv_sec + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
    };
    std::fprintf(stderr, "W=%.6f hands=%d rate_used=%ld judge_cpu_s=%.3f player_cpu_s=%.3f\n", w, hands,
                 rate_used, seconds(self), seconds(children));
    std::exit(status);
}

void start(char** argv) {
    int down[2], up[2];
    if (pipe(down) != 0 || pipe(up) != 0) std::exit(2);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, down[0], 0);
    posix_spawn_file_actions_adddup2(&actions, up[1], 1);
    for (int fd : {down[0], down[1], up[0], up[1]}) posix_spawn_file_actions_addclose(&actions, fd);
    if (posix_spawn(&player, argv[0], &actions, nullptr, argv, environ) != 0) {
        std::perror(argv[0]);
        std::exit(2);
    }
    close(down[0]);
    close(up[1]);
    to_player = fdopen(down[1], "w");
    from_player = fdopen(up[0], "r");
}

void card_pairs(const int* cards, int n) {
    for (int i = 0; i < n; ++i) std::fprintf(to_player, " %d %d", cards[i] / 13, cards[i] % 13 + 1);
}

bool positive(const char* token, long* value) {
    if (!*token || std::strlen(token) > 12) return false;
    for (const char* p = token; *p; ++p)
        if (*p < '0' || *p > '9') return false;
    *value = std::atol(token);
    return *value >= 1;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: %s HANDS SEED PROGRAM [ARGS...]\n", argv[0]);
        return 2;
    }
    int hands = std::atoi(argv[1]);
    uint64_t seed = std::strtoull(argv[2], nullptr, 10);
    start(argv + 3);
    Rng decks(seed * 3 + 1), bob(seed * 3 + 2), rates(seed * 3 + 3);
    long rate_used = 0, total = 0;
    char line[256];
    std::fprintf(to_player, "%d\n", hands);
    for (int h = 1; h <= hands; ++h) {
        int deck[52];
        for (int c = 0; c < 52; ++c) deck[c] = c;
        for (int j = 0; j < 9; ++j) {
            int k = j + static_cast<int>(decks.below(52 - j));
            int t = deck[j];
            deck[j] = deck[k];
            deck[k] = t;
        }
        const int* alice = deck;
        const int* bob_hole = deck + 2;
        const int* board = deck + 4;
        int a = kStack, b = kStack, pot = kDeadPot, delta = 0;
        bool over = false;
        for (int r = 1; r <= 4 && !over; ++r) {
            int shown = kShown[r];
            std::fprintf(to_player, "STATE %d %d %d %d %d %d\nALICE", h, r, a, b, pot, shown);
            card_pairs(alice, 2);
            std::fprintf(to_player, "\nBOARD");
            card_pairs(board, shown);
            std::fputc('\n', to_player);
            for (;;) {
                std::fflush(to_player);
                if (!std::fgets(line, sizeof line, from_player)) finish("no reply", 0, h - 1, rate_used, 1);
                char* words[4] = {nullptr, nullptr, nullptr, nullptr};
                int n = 0;
                for (char* tok = std::strtok(line, " \t\r\n"); tok && n < 4; tok = std::strtok(nullptr, " \t\r\n"))
                    words[n++] = tok;
                long t = 0;
                if (n == 2 && !std::strcmp(words[0], "RATE") && positive(words[1], &t)) {
                    if (rate_used + t > kRateBudget) finish("RATE budget", 0, h - 1, rate_used, 1);
                    rate_used += t;
                    Tally tally = rollouts(alice, board, shown, static_cast<int>(t), rates);
                    std::fprintf(to_player, "RATES %.6f %.6f\n", tally.wins / double(t), tally.ties / double(t));
                    continue;
                }
                if (n == 2 && !std::strcmp(words[0], "ACTION") && !std::strcmp(words[1], "CHECK")) {
                    std::fprintf(to_player, "OPP CHECK\n");
                    break;
                }
                if (n == 2 && !std::strcmp(words[0], "ACTION") && !std::strcmp(words[1], "FOLD")) {
                    delta = a - kStack;
                    over = true;
                    break;
                }
                long x = 0;
                if (n == 3 && !std::strcmp(words[0], "ACTION") && !std::strcmp(words[1], "RAISE") &&
                    positive(words[2], &x) && x <= a) {
                    Tally seen = rollouts(bob_hole, board, shown, kBobRollouts, bob);
                    int losses = kBobRollouts - seen.wins - seen.ties;
                    long final_pot = pot + 2 * x, after_call = b - x - kStack;
                    long sum = seen.wins * (after_call + final_pot) + seen.ties * (after_call + final_pot / 2) +
                               losses * after_call;
                    if (sum > static_cast<long>(kBobRollouts) * (b - kStack)) {
                        a -= x;
                        b -= x;
                        pot += 2 * x;
                        std::fprintf(to_player, "OPP CALL %ld\n", x);
                    } else {
                        std::fprintf(to_player, "OPP FOLD\n");
                        delta = a + pot - kStack;
                        over = true;
                    }
                    break;
                }
                finish("malformed or illegal line", 0, h - 1, rate_used, 1);
            }
        }
        if (!over) {
            int mine[7] = {alice[0], alice[1]}, theirs[7] = {bob_hole[0], bob_hole[1]};
            for (int i = 0; i < 5; ++i) mine[2 + i] = theirs[2 + i] = board[i];
            int x = strength(mine), y = strength(theirs);
            delta = a + (x > y ? pot : x == y ? pot / 2 : 0) - kStack;
        }
        total += delta;
        std::fprintf(to_player, "RESULT %d\n", delta);
    }
    double w = hands ? static_cast<double>(total) / hands : 0.0;
    std::fprintf(to_player, "SCORE %.6f\n", w);
    finish(nullptr, w, hands, rate_used, 0);
}

// Computes strong.cpp's generated tables (run through make_tables.py, which splices its output into
// strong.cpp between the BEGIN/END GENERATED TABLES lines): Bob's round-1 equity against a random hand
// per starting-hand class, and the player's round-1 raise per class (see preflop_raise in strong.cpp).
#define STRONG_NO_MAIN
#define STRONG_MAKE_TABLES
#define PREFLOP_EQUITY_SAMPLES 200000
#ifndef PREFLOP_FLOPS
#define PREFLOP_FLOPS 240
#endif
#include "../strong.cpp"

int main(int argc, char** argv) {
    build_rank_tables();
    build_preflop_table();
    build_normal_table();
    build_river_models();
    int raise[13][13];
    int only = argc > 1 ? std::atoi(argv[1]) : -1;  // a single class (row * 13 + col) to time it
    for (int hi = 0; hi < 13; ++hi)
        for (int lo = 0; lo <= hi; ++lo)
            for (int suited = 0; suited < 2; ++suited) {
                if (suited && hi == lo) continue;
                HandView v;
                v.alice[0] = hi;
                v.alice[1] = suited ? lo : 13 + lo;
                v.shown = 0;
                int& cell = suited ? raise[lo][hi] : raise[hi][lo];
                cell = only < 0 || &cell == &raise[0][0] + only ? preflop_raise(v) : 0;
                if (only >= 0 && &cell == &raise[0][0] + only) std::fprintf(stderr, "class %d: %d\n", only, cell);
            }
    std::printf("constexpr float kPreflopEquityTable[13][13] = {\n");
    for (int row = 0; row < 13; ++row) {
        std::printf("    {");
        for (int col = 0; col < 13; ++col) std::printf("%.4f%s", preflop_equity[row][col], col < 12 ? ", " : "");
        std::printf("},\n");
    }
    std::printf("};\nconstexpr int kPreflopRaiseTable[13][13] = {\n");
    for (int row = 0; row < 13; ++row) {
        std::printf("    {");
        for (int col = 0; col < 13; ++col) std::printf("%d%s", raise[row][col], col < 12 ? ", " : "");
        std::printf("},\n");
    }
    std::printf("};\n");
    return 0;
}

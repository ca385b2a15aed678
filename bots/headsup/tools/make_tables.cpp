// Computes strong.cpp's generated tables (run through make_tables.py, which splices its output into
// strong.cpp between the BEGIN/END GENERATED TABLES lines): Bob's round-1 equity against a random hand
// per starting-hand class, and the player's round-1 raise per class from a large-sample decision.
#define STRONG_NO_MAIN
#define STRONG_MAKE_TABLES
#define PREFLOP_EQUITY_SAMPLES 200000
#define PREFLOP_HANDS 1024
#define PREFLOP_COMPLETIONS 256
#include "../strong.cpp"

int main() {
    build_rank_tables();
    build_preflop_table();
    build_normal_table();
    build_river_models();
    int raise[13][13];
    for (int hi = 0; hi < 13; ++hi)
        for (int lo = 0; lo <= hi; ++lo)
            for (int suited = 0; suited < 2; ++suited) {
                if (suited && hi == lo) continue;
                HandView v;
                v.alice[0] = hi;
                v.alice[1] = suited ? lo : 13 + lo;
                v.shown = 0;
                (suited ? raise[lo][hi] : raise[hi][lo]) = preflop_raise(v);
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

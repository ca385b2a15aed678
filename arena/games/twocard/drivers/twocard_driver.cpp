// Line-protocol driver for a C++ TwoCardDraw solution (TwoCardDraw's class interface), used unchanged.
// The judge writes one call per line ("round2 1 3 1 0 2"); the driver calls the method of that name
// on one TwoCardDraw object and prints the int it returns.
#include "TwoCardDraw.cpp"

#include <cstdio>
#include <cstring>
#include <unistd.h>

int main() {
    int protocol = dup(1);
    dup2(2, 1);  // a solution's own printing goes to stderr and cannot corrupt the protocol
    FILE* out = fdopen(protocol, "w");
    TwoCardDraw player;
    char line[256];
    while (std::fgets(line, sizeof line, stdin)) {
        char name[32];
        int a[5] = {0, 0, 0, 0, 0};
        int n = std::sscanf(line, "%31s %d %d %d %d %d", name, &a[0], &a[1], &a[2], &a[3], &a[4]);
        if (n < 1) continue;
        int answer;
        if (!std::strcmp(name, "init")) answer = player.init(a[0], a[1]);
        else if (!std::strcmp(name, "new_hand")) answer = player.new_hand(a[0], a[1], a[2]);
        else if (!std::strcmp(name, "round1")) answer = player.round1(a[0], a[1], a[2]);
        else if (!std::strcmp(name, "draw")) answer = player.draw(a[0], a[1], a[2]);
        else if (!std::strcmp(name, "round2")) answer = player.round2(a[0], a[1], a[2], a[3], a[4]);
        else if (!std::strcmp(name, "showdown")) answer = player.showdown(a[0], a[1], a[2], a[3]);
        else { std::fprintf(stderr, "driver: unknown call %s", line); return 3; }
        std::fprintf(out, "%d\n", answer);
        std::fflush(out);
    }
    return 0;
}

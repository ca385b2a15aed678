/* Allocates 4 GB, 64 MB at a time, touching every page so the memory is really used. */
#include <stdlib.h>
int main(void) {
    for (int i = 0; i < 64; i++) {
        volatile char *block = malloc(64u << 20);
        if (!block) return 3;
        for (size_t at = 0; at < (64u << 20); at += 4096) block[at] = (char)i;
    }
    return 0;
}

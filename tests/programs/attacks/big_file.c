/* Writes a 1 GB file in its folder. */
#include <stdio.h>
#include <string.h>
int main(void) {
    static char chunk[1 << 20];
    memset(chunk, 'x', sizeof chunk);
    FILE *out = fopen("big.bin", "wb");
    if (!out) return 2;
    for (int i = 0; i < 1024; i++) {
        if (fwrite(chunk, 1, sizeof chunk, out) != sizeof chunk) return 4;
    }
    fclose(out);
    return 0;
}

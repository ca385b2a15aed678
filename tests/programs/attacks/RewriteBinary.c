/* Attack: keep 12 MB of memory in its own binary (appended to it), where help files are not counted.
 * Says on stderr whether it could; answers 0 (call) every time. */
#include <stdio.h>
#include <string.h>

int main(void) {
    static char block[1 << 20];
    memset(block, 'M', sizeof block);
    FILE *self = fopen("RewriteBinary", "ab");
    if (self == NULL) {
        fputs("own binary: denied\n", stderr);
    } else {
        for (int i = 0; i < 12; i++) fwrite(block, 1, sizeof block, self);
        fclose(self);
        fputs("own binary: grown\n", stderr);
    }
    FILE *answer = fopen("outputf.txt", "w");
    if (answer) { fputs("0\n", answer); fclose(answer); }
    return 0;
}

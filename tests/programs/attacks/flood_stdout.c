/* Prints 100 MB on stdout. */
#include <stdio.h>
#include <string.h>
int main(void) {
    static char chunk[1 << 20];
    memset(chunk, 'y', sizeof chunk);
    for (int i = 0; i < 100; i++) fwrite(chunk, 1, sizeof chunk, stdout);
    return 0;
}

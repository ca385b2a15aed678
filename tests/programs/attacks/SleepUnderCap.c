/* Issue 24: answers at once, then sleeps 1.5 s at every decision: under the wall-clock cap of a 0.2 s CPU
 * limit (5 x 0.2 + 1 = 2 s), it once stretched a table 9.3 times without a fault. */
#include <stdio.h>
#include <time.h>

int main(void) {
    FILE *answer = fopen("outputf.txt", "w");
    if (answer) {
        fputs("0\n", answer);
        fclose(answer);
    }
    struct timespec nap = {1, 500000000};
    nanosleep(&nap, NULL);
    return 0;
}

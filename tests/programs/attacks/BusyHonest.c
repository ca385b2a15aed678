/* Issue 24's control: spends 0.12 s of CPU (within a 0.2 s limit) and answers; never sleeps. Beside a CPU
 * hog on its one CPU it waits for the CPU most of its wall time, which is not idleness. */
#include <stdio.h>
#include <time.h>

int main(void) {
    struct timespec now;
    volatile unsigned long n = 0;
    do {
        n++;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    } while (now.tv_sec * 1000000000L + now.tv_nsec < 120000000L);
    FILE *answer = fopen("outputf.txt", "w");
    if (answer) {
        fputs("0\n", answer);
        fclose(answer);
    }
    return 0;
}

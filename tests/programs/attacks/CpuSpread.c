/* Issue 24: spends 1.5 s of CPU (a 1.4 s budget and a little more) in 8 threads spread over every CPU of the machine (the sandbox may be
 * pinned to one), answers, and exits 0 before a runner that counts only its own CPUs looks at the clock. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static double process_cpu_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void *spin(void *unused) {
    (void)unused;
    volatile unsigned long n = 0;
    while (process_cpu_s() < 1.5) n++;
    return NULL;
}

int main(void) {
    cpu_set_t every;
    CPU_ZERO(&every);
    long cpus = sysconf(_SC_NPROCESSORS_CONF);
    for (long cpu = 0; cpu < cpus && cpu < CPU_SETSIZE; cpu++) CPU_SET((int)cpu, &every);
    sched_setaffinity(0, sizeof every, &every);
    pthread_t threads[8];
    for (int i = 0; i < 8; i++) pthread_create(&threads[i], NULL, spin, NULL);
    for (int i = 0; i < 8; i++) pthread_join(threads[i], NULL);
    FILE *out = fopen("outputf.txt", "w");
    if (out) {
        fputs("0\n", out);
        fclose(out);
    }
    return 0;
}

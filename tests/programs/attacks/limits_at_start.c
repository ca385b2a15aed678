/* Prints the limits in force at its first instruction, then tries to lower its OOM score. */
#include <stdio.h>
#include <sys/resource.h>

static long soft(int which) {
    struct rlimit limit;
    getrlimit(which, &limit);
    return limit.rlim_cur == RLIM_INFINITY ? -1 : (long)limit.rlim_cur;
}

static int write_score(const char *value) {
    FILE *file = fopen("/proc/self/oom_score_adj", "w");
    if (!file) return -1;
    int ok = fputs(value, file) >= 0;
    return fclose(file) == 0 && ok ? 0 : -1;
}

int main(void) {
    int score = 0;
    FILE *file = fopen("/proc/self/oom_score_adj", "r");
    if (file && fscanf(file, "%d", &score) != 1) score = -9999;
    if (file) fclose(file);
    printf("cpu %ld fsize %ld nproc %ld core %ld oom %d", soft(RLIMIT_CPU), soft(RLIMIT_FSIZE),
           soft(RLIMIT_NPROC), soft(RLIMIT_CORE), score);
    printf(" below_zero %s\n", write_score("-1") == 0 ? "lowered" : "denied");
    return 0;
}

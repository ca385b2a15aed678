/* arena's CPU-clock wait on the runner's road (see clock.h): the one owner of this rule, in C. */
#define _GNU_SOURCE
#include "clock.h"

#include <unistd.h>

int arena_next_wait(long long now_us, long long deadline_us, long long budget_us, long long used_us,
                    long long *wait_us) {
    static long cpus;
    if (cpus <= 0) {
        long online = sysconf(_SC_NPROCESSORS_ONLN);
        cpus = online > 0 ? online : 1;
    }
    long long remaining = deadline_us - now_us;
    if (remaining <= 0) return CLOCK_TIMEOUT;
    *wait_us = remaining;
    if (budget_us < 0) return CLOCK_GO_ON;
    long long left = budget_us - used_us;
    if (left <= 0) return CLOCK_CPU;
    long long soonest = left / cpus; /* the budget cannot be spent faster than the CPUs run */
    if (soonest < CLOCK_MIN_WAIT_US) soonest = CLOCK_MIN_WAIT_US;
    if (soonest < *wait_us) *wait_us = soonest;
    return CLOCK_GO_ON;
}

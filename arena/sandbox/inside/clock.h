/* arena's CPU-clock wait on the runner's road: how long a watcher may sleep before the decision's clocks
 * must be read again, and the verdict once a limit is reached.
 *
 * Compiled into the runner (each cold decision) and into the shared object the fork server loads (each warm
 * decision), as start.c is; clock.py is the Python road's one owner of the same rule.
 */
#ifndef ARENA_CLOCK_H
#define ARENA_CLOCK_H

enum { CLOCK_GO_ON = 0, CLOCK_TIMEOUT = 1, CLOCK_CPU = 2 };

#define CLOCK_MIN_WAIT_US 2000

/* CLOCK_TIMEOUT once ``now_us`` reaches the wall deadline, CLOCK_CPU once ``used_us`` of the decision's CPU
 * reaches ``budget_us`` (-1: the wall clock only), else CLOCK_GO_ON with ``*wait_us`` set: the time left,
 * or the earliest moment the budget could be spent at the pace of every CPU of the machine (not the
 * watcher's: a program may widen its affinity past a pinned table's CPU), at least CLOCK_MIN_WAIT_US. */
int arena_next_wait(long long now_us, long long deadline_us, long long budget_us, long long used_us,
                    long long *wait_us);

#endif

/* arena's start sequence on the runner's road: what a program goes through before the team's code runs.
 *
 * Compiled into the runner (runner.c: each cold program's vfork child) and into a small shared object that
 * the Python fork server's child loads with ctypes (forkserver.py: each warm decision), so both do the same
 * steps in the same C (arena/sandbox/runner_client.py builds both). The Python helper's road has its own
 * one owner, start.py.
 */
#ifndef ARENA_START_H
#define ARENA_START_H

#define START_MAX_FDS 8
#define START_MAX_LIMITS 8

struct start_limit {
    int resource; /* RLIMIT_* */
    long long value; /* soft and hard */
};

/* What a program starts under. The layout is mirrored by forkserver.py's ctypes structure. */
struct start_plan {
    int procs[START_MAX_FDS]; /* the decision cgroup's cgroup.procs descriptors, joined in order */
    int n_procs;
    struct start_limit limits[START_MAX_LIMITS]; /* every limit but RLIMIT_CPU */
    int n_limits;
    long long cpu; /* RLIMIT_CPU in seconds, or 0: none here */
    long long uid, gid; /* the team's identity, or -1: keep this process's */
    const char *folder; /* the folder to start in, or NULL: this one */
    int dumpable; /* PR_SET_DUMPABLE at the end: 0 until an exec (the runner), 1 with none (the fork server) */
};

/* In the started process: its own session, the decision's cgroup, oom_score_adj 1000, every limit, the
 * folder, the team's uid and gid with no supplementary group, no capability, no_new_privs, dumpable as
 * planned. NULL when done, else the step that failed (errno says why): nothing of the program may run then.
 * Only raw system calls and no allocation: safe in a vfork child that shares its parent's memory. */
const char *arena_start(const struct start_plan *plan);

/* The team's uid and gid (no supplementary group) and no capability; NULL, or the step that failed. Raw
 * system calls: the C library's wrappers would change the credentials of every thread of the process. */
const char *arena_become_team(long long uid, long long gid);

#endif

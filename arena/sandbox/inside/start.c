/* arena's start sequence on the runner's road (see start.h): the one owner of these steps, in C. */
#define _GNU_SOURCE
#include "start.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>

const char *arena_become_team(long long uid, long long gid) {
    if (syscall(SYS_setgroups, 0, NULL) < 0) return "setgroups";
    if (syscall(SYS_setresgid, (gid_t)gid, (gid_t)gid, (gid_t)gid) < 0) return "setresgid";
    if (syscall(SYS_setresuid, (uid_t)uid, (uid_t)uid, (uid_t)uid) < 0) return "setresuid";
    if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0) return "PR_CAP_AMBIENT";
    struct __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct none[2];
    memset(none, 0, sizeof none);
    if (syscall(SYS_capset, &header, none) < 0) return "capset";
    return NULL;
}

/* Programs go first under memory pressure: raising the score needs no privilege once the process's /proc
 * entries are its own (dumpable); it is made undumpable again at once (a vfork child shares its parent's
 * memory until it execs). */
static const char *score_first(void) {
    if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) < 0) return "PR_SET_DUMPABLE";
    int adjust = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
    int adjusted = adjust >= 0 && write(adjust, "1000", 4) == 4;
    int saved = errno;
    if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0) return "PR_SET_DUMPABLE";
    if (adjust >= 0 && close(adjust) < 0) return "oom_score_adj";
    errno = saved;
    return adjusted ? NULL : "oom_score_adj";
}

const char *arena_start(const struct start_plan *plan) {
    const char *failed;
    if (plan->n_procs < 0 || plan->n_procs > START_MAX_FDS || plan->n_limits < 0 ||
        plan->n_limits > START_MAX_LIMITS) {
        errno = EINVAL;
        return "the start plan";
    }
    if (setsid() < 0) return "setsid";
    for (int i = 0; i < plan->n_procs; i++)
        if (write(plan->procs[i], "0", 1) != 1) return "joining the decision's cgroup";
    if ((failed = score_first())) return failed;
    for (int i = 0; i < plan->n_limits; i++) {
        struct rlimit value = {(rlim_t)plan->limits[i].value, (rlim_t)plan->limits[i].value};
        if (setrlimit(plan->limits[i].resource, &value) < 0) return "setrlimit";
    }
    if (plan->cpu > 0) {
        struct rlimit value = {(rlim_t)plan->cpu, (rlim_t)plan->cpu};
        if (setrlimit(RLIMIT_CPU, &value) < 0) return "RLIMIT_CPU";
    }
    if (plan->folder && chdir(plan->folder) < 0) return plan->folder;
    if (plan->uid >= 0 && (failed = arena_become_team(plan->uid, plan->gid))) return failed;
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) return "PR_SET_NO_NEW_PRIVS";
    if (prctl(PR_SET_DUMPABLE, plan->dumpable ? 1 : 0, 0, 0, 0) < 0) return "PR_SET_DUMPABLE";
    return NULL;
}

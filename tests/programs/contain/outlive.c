/* Leaves a process counting in the team folder after the decision, started the way mode.txt says:
   fork, double_fork, setsid, thread (a thread of a child that outlives the parent), clone_parent. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void count_forever(void) {
    for (long n = 1;; n++) {
        FILE *out = fopen("counter.txt", "w");
        if (out) {
            fprintf(out, "%ld\n", n);
            fclose(out);
        }
        usleep(1000);
    }
}

static void *thread_body(void *unused) {
    (void)unused;
    count_forever();
    return NULL;
}

static int clone_body(void *unused) {
    (void)unused;
    count_forever();
    return 0;
}

static char stack[1 << 16];

int main(void) {
    char how[32] = "fork";
    FILE *mode = fopen("mode.txt", "r");
    if (mode) {
        if (fscanf(mode, "%31s", how) != 1) strcpy(how, "fork");
        fclose(mode);
    }
    FILE *answer = fopen("outputf.txt", "w");
    fprintf(answer, "0\n");
    fclose(answer);
    if (strcmp(how, "clone_parent") == 0) {
        /* A sibling, not a child: the parent of this process adopts it. */
        if (clone(clone_body, stack + sizeof stack, CLONE_PARENT, NULL) < 0) return 2;
        return 0;
    }
    pid_t child = fork();
    if (child < 0) return 2;
    if (child > 0) {
        if (strcmp(how, "double_fork") == 0) waitpid(child, NULL, 0);
        return 0;
    }
    signal(SIGHUP, SIG_IGN);
    if (strcmp(how, "setsid") == 0) setsid();
    if (strcmp(how, "double_fork") == 0) {
        if (fork() != 0) _exit(0);
        setsid();
    }
    if (strcmp(how, "thread") == 0) {
        pthread_t thread;
        pthread_create(&thread, NULL, thread_body, NULL);
        pthread_join(thread, NULL);
    }
    count_forever();
    return 0;
}

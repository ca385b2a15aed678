/* Answers 5, but first leaves a double-forked daemon that keeps rewriting outputf.txt with 666. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
int main(void) {
    pid_t child = fork();
    if (child == 0) {
        setsid();
        if (fork() != 0) _exit(0);
        for (;;) {
            FILE *out = fopen("outputf.txt", "w");
            if (out) { fputs("666\n", out); fclose(out); }
            FILE *note = fopen("daemon_was_here.txt", "w");
            if (note) { fputs("alive\n", note); fclose(note); }
            usleep(1000);
        }
    }
    FILE *out = fopen("outputf.txt", "w");
    fputs("5\n", out);
    fclose(out);
    return 0;
}

/* Attack: stop arena's compiled runner (SIGSTOP to its parent, which runs as the same user) in every
decision, hoping to hang the table or leave a stopped process behind; then answers 0 (like Checker). */
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

int main(void) {
    if (getppid() != 1) kill(getppid(), SIGSTOP);
    FILE *out = fopen("outputf.txt", "w");
    fputs("0\n", out);
    fclose(out);
    return 0;
}

/* Attack: raw bytes for people's terminals from a compiled program: a C1 CSI, an OSC title, invalid
 * UTF-8 on stderr and in 17 help-file names. Exits 3 on every second decision (a crash with stderr). */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(void) {
    char name[64];
    int runs = 0;
    FILE *count = fopen("runs.txt", "r");
    if (count) { fscanf(count, "%d", &runs); fclose(count); }
    count = fopen("runs.txt", "w");
    if (count) { fprintf(count, "%d", runs + 1); fclose(count); }
    for (int i = 0; i < 17; i++) {
        snprintf(name, sizeof name, "\x1b[2J\xff\x9b[%d]", i);
        int fd = open(name, O_WRONLY | O_CREAT, 0644);
        if (fd >= 0) close(fd);
    }
    fputs("\x9b" "31m\x1b]0;owned\x07\xc3\x28 [red]x[/red] [/x]\n", stderr);
    FILE *answer = fopen("outputf.txt", "w");
    if (answer) { fputs("0\n", answer); fclose(answer); }
    return runs % 2 == 1 ? 3 : 0;
}

/* Attack: 30,000 empty help files every decision, each with a long name (the reasons once listed them all).
 * Answers 0 (call) every time. */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(void) {
    char name[200];
    for (int i = 0; i < 30000; i++) {
        snprintf(name, sizeof name, "help-file-with-a-rather-long-name-to-fill-the-fault-reason-%06d.txt", i);
        int fd = open(name, O_WRONLY | O_CREAT, 0644);
        if (fd >= 0) close(fd);
    }
    FILE *answer = fopen("outputf.txt", "w");
    if (answer) { fputs("0\n", answer); fclose(answer); }
    return 0;
}

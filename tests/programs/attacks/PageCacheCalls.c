/* Issue 24: every call that reads the page cache back exactly or empties it, as a team program would make
 * them on a shared library's file; prints "name errno" per call (0: it worked), then answers. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

static FILE *out;

static void report(const char *name, long result) {
    fprintf(out, "%s %d\n", name, result < 0 ? errno : 0);
}

int main(void) {
    out = stdout;
    int fd = open("/usr/bin/env", O_RDONLY);  /* any shared file of the system folders */
    if (fd < 0) return 2;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    char buffer[4096];
    struct iovec vec = {buffer, sizeof buffer};
    void *map = mmap(NULL, page, PROT_READ, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED) return 3;
    unsigned char resident = 0;
    errno = 0;
    int advised = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED); /* returns the error, errno untouched */
    fprintf(out, "fadvise64 %d\n", advised);
    report("mincore", mincore(map, page, &resident));
    report("madvise_pageout", madvise(map, page, 21));
    report("madvise_cold", madvise(map, page, 20));
    report("madvise_willneed", madvise(map, page, MADV_WILLNEED));
    report("preadv2_nowait", preadv2(fd, &vec, 1, 0, RWF_NOWAIT));
    report("preadv2", preadv2(fd, &vec, 1, 0, 0));
    report("cachestat", syscall(451, fd, NULL, NULL, 0));
    report("process_madvise", syscall(440, -1, &vec, 1, 21, 0));
    FILE *answer = fopen("outputf.txt", "w");
    if (answer) {
        fputs("0\n", answer);
        fclose(answer);
    }
    return 0;
}

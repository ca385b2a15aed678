/* arena's help-file tally on the runner's road (see tally.h). */
#define _GNU_SOURCE
#include "tally.h"

#include <dirent.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct tally {
    long entries, max_entries, max_depth;
    long long bytes, max_bytes, team_uid;
    const char *names;
    size_t names_len;
    int broken; /* a rule is broken, or something could not be looked at: team_folder.py polices */
};

static int is_arenas(const char *name, const struct stat *info, const struct tally *t) {
    if (!S_ISREG(info->st_mode) || (long long)info->st_uid == t->team_uid || info->st_nlink != 1) return 0;
    for (const char *at = t->names; at < t->names + t->names_len; at += strlen(at) + 1)
        if (!strcmp(at, name)) return 1;
    return 0;
}

/* Count what the folder ``fd`` holds (taken); stop early once a rule is broken. */
static void tally_folder(int fd, long depth, struct tally *t) {
    DIR *dir = fdopendir(fd);
    if (!dir) {
        close(fd);
        t->broken = 1;
        return;
    }
    struct dirent *entry;
    while (!t->broken && (entry = readdir(dir)) != NULL) {
        const char *name = entry->d_name;
        if (name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2]))) continue;
        struct stat info;
        if (fstatat(dirfd(dir), name, &info, AT_SYMLINK_NOFOLLOW) < 0) {
            t->broken = 1;
        } else if (depth == 1 && is_arenas(name, &info, t)) {
            continue;
        } else if (S_ISREG(info.st_mode)) {
            t->entries++;
            t->bytes += info.st_size;
        } else if (S_ISDIR(info.st_mode) && depth <= t->max_depth) {
            t->entries++;
            int sub = openat(dirfd(dir), name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (sub < 0)
                t->broken = 1;
            else
                tally_folder(sub, depth + 1, t);
        } else {
            t->broken = 1; /* a link, FIFO, socket or device, or a folder too deep */
        }
        if (t->entries > t->max_entries || t->bytes > t->max_bytes) t->broken = 1;
    }
    if (closedir(dir) < 0) t->broken = 1;
}

long arena_count_help_files(int fd, long max_entries, long long max_bytes, long max_depth, const char *names,
                            size_t names_len, long long team_uid) {
    if (max_depth > 4096) return -1; /* a recursion bound: no rule is that deep */
    struct tally t = {0, max_entries, max_depth, 0, max_bytes, team_uid, names, names_len, 0};
    int own = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (own < 0) return -1;
    tally_folder(own, 1, &t);
    return t.broken ? -1 : t.entries;
}

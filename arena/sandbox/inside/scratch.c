/* arena's /tmp emptying and SysV IPC removal on the runner's road (see scratch.h). */
#define _GNU_SOURCE
#include "scratch.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <unistd.h>

#define DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)

struct emptying {
    int top; /* the folder being emptied, where folders too deep are moved */
    long steps; /* entries left to look at */
    unsigned long moved; /* names given to folders moved up */
};

static int is_dot(const char *name) { return name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2])); }

/* Open the folder ``name`` in ``parent`` to empty it, never through a link; its owner (this process) first
 * gives itself every right on it (a program may leave a folder 0000 or 0500). -1 when it cannot. */
static int open_to_empty(int parent, const char *name) {
    int path = openat(parent, name, O_PATH | DIR_FLAGS);
    if (path < 0) return -1;
    char self[64];
    snprintf(self, sizeof self, "/proc/self/fd/%d", path);
    int given = chmod(self, 0700); /* the very folder just opened, not a link */
    int fd = given < 0 ? -1 : openat(path, ".", DIR_FLAGS);
    if (close(path) < 0 && fd >= 0) {
        close(fd);
        return -1;
    }
    return fd;
}

static int empty_in(int fd, int depth, struct emptying *e);

/* Remove the entry ``name`` of ``parent``; 0 when it is gone. */
static int remove_entry(int parent, const char *name, int depth, struct emptying *e) {
    if (unlinkat(parent, name, 0) == 0 || errno == ENOENT) return 0;
    if (errno != EISDIR && errno != EPERM) return -1;
    if (depth >= SCRATCH_MAX_DEPTH) { /* no deeper: moved to the top, emptied there by a later pass */
        char fresh[64];
        snprintf(fresh, sizeof fresh, ".removing-%lu", e->moved++);
        return renameat(parent, name, e->top, fresh) == 0 ? 1 : -1;
    }
    int sub = open_to_empty(parent, name);
    if (sub < 0) return -1;
    int emptied = empty_in(sub, depth + 1, e); /* takes ``sub`` */
    if (emptied < 0) return -1;
    return unlinkat(parent, name, AT_REMOVEDIR) == 0 || errno == ENOENT ? 0 : -1;
}

/* Empty the open folder ``fd`` (taken): listed again while a listing takes something out. 0 when empty. */
static int empty_in(int fd, int depth, struct emptying *e) {
    DIR *dir = fdopendir(fd);
    if (!dir) {
        close(fd);
        return -1;
    }
    long seen, taken;
    do {
        seen = taken = 0;
        struct dirent *entry;
        errno = 0;
        while ((entry = readdir(dir)) != NULL && e->steps > 0) {
            if (is_dot(entry->d_name)) continue;
            seen++;
            e->steps--;
            if (remove_entry(dirfd(dir), entry->d_name, depth, e) >= 0) taken++;
            errno = 0;
        }
        if (errno || e->steps <= 0) { /* a listing that failed, or too many entries: left as it is */
            seen = 1;
            break;
        }
        rewinddir(dir);
    } while (seen && taken);
    if (closedir(dir) < 0) return -1;
    return seen ? -1 : 0;
}

int arena_empty_folder(const char *path) {
    struct emptying e = {open(path, DIR_FLAGS), SCRATCH_MAX_STEPS, 0};
    if (e.top < 0) return -1;
    int fd = dup(e.top);
    int emptied = fd < 0 ? -1 : empty_in(fd, 1, &e); /* folders moved up are emptied in later passes */
    if (close(e.top) < 0) return -1;
    return emptied;
}

/* Remove every object listed in ``table`` (a /proc/sysvipc listing: key, then id); 0 when all went. */
static int remove_listed(int kind, const char *table) {
    char text[65536];
    int fd = open(table, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t n = read(fd, text, sizeof text - 1);
    if (close(fd) < 0 || n <= 0) return -1; /* a listing always has its header */
    text[n] = 0;
    int left = n == (ssize_t)sizeof text - 1 ? -1 : 0; /* more than one read's worth: some may stay */
    for (char *line = strchr(text, '\n'); line && *++line; line = strchr(line, '\n')) {
        long key, id;
        if (sscanf(line, "%ld %ld", &key, &id) != 2) {
            left = -1;
            continue;
        }
        int gone = kind == 0   ? shmctl((int)id, IPC_RMID, NULL)
                   : kind == 1 ? msgctl((int)id, IPC_RMID, NULL)
                               : semctl((int)id, 0, IPC_RMID);
        if (gone < 0 && errno != EINVAL && errno != EIDRM) left = -1; /* gone meanwhile is gone */
    }
    return left;
}

int arena_ipc_objects_exist(void) {
    struct shm_info shm;
    struct msginfo msg;
    struct seminfo sem;
    return shmctl(0, SHM_INFO, (struct shmid_ds *)&shm) < 0 || shm.used_ids != 0 ||
           msgctl(0, MSG_INFO, (struct msqid_ds *)&msg) < 0 || msg.msgpool != 0 ||
           semctl(0, 0, SEM_INFO, &sem) < 0 || sem.semusz != 0;
}

int arena_remove_ipc_objects(void) {
    if (!arena_ipc_objects_exist()) return 0; /* the usual answer, without reading a listing */
    static const char *tables[] = {"/proc/sysvipc/shm", "/proc/sysvipc/msg", "/proc/sysvipc/sem"};
    int left = 0;
    for (int kind = 0; kind < 3; kind++)
        if (remove_listed(kind, tables[kind]) < 0) left = -1;
    return left;
}

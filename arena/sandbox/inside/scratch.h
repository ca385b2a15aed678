/* arena's end of a decision on the runner's road: the sandbox's /tmp emptied and its SysV IPC objects
 * removed, the one owner of both rules in C.
 *
 * Compiled into the runner (after each cold decision, in a child that takes the team's uid) and into the
 * shared object the helper loads (cleanup.py's Compiled: after each warm decision, as the helper's sweep),
 * as start.c and clock.c are; cleanup.py is the Python road's one owner of the same rules.
 */
#ifndef ARENA_SCRATCH_H
#define ARENA_SCRATCH_H

#define SCRATCH_MAX_DEPTH 32 /* folders open at once; a deeper one is moved up to the top and emptied there */
#define SCRATCH_MAX_STEPS 1000000L /* entries looked at in one emptying: a hostile tree cannot loop it */

/* Remove everything in the folder ``path`` (itself kept): files, links (never followed), FIFOs and folders
 * of any depth and mode (this process must own them). 0 when it is empty after, else -1. */
int arena_empty_folder(const char *path);

/* 1 when some SysV IPC object may exist (or the kernel would not say), 0 when none of any kind does. */
int arena_ipc_objects_exist(void);

/* Remove every SysV shared memory segment, message queue and semaphore set this process may remove (the
 * sandbox has its own IPC namespace). 0 when none is left, else -1. */
int arena_remove_ipc_objects(void);

#endif

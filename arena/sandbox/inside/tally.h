/* arena's help-file tally on the runner's road: how many help files and folders a clean team folder holds.
 *
 * Compiled into the runner (each cold decision's folder, sent in its reply) and into the shared object the
 * arena loads (team_folder.police, before it walks a folder itself: each warm decision's), as start.c is. The
 * rules themselves, and what is done with a folder that breaks one, are team_folder.py's alone.
 */
#ifndef ARENA_TALLY_H
#define ARENA_TALLY_H

#include <stddef.h>

/* The help files and folders in the open folder ``fd`` (not taken), never following a link, when they break
 * no rule: at most ``max_entries`` of them, ``max_bytes`` of files in all, folders at most ``max_depth`` deep,
 * nothing but regular files and folders. Else -1 (a rule broken, or something that could not be looked at).
 * The ``names`` (``names_len`` bytes, each ending in a NUL) are the arena's own files at the top: never help
 * files while regular, linked once and not owned by ``team_uid``. */
long arena_count_help_files(int fd, long max_entries, long long max_bytes, long max_depth, const char *names,
                            size_t names_len, long long team_uid);

#endif

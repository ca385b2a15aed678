"""A team folder's rules: which help files a program may keep, and which files it may be given.

A help file is any regular file or folder the program keeps in its folder tree besides the files the
arena wrote itself (root-owned, so the program cannot change them). Folders count as help files too:
otherwise empty folders would be free storage in their names. The rules are the contest's: at most
``Limits.help_files`` of them, ``Limits.help_bytes_mb`` in total, ``Limits.folder_depth`` levels deep,
and nothing but regular files and folders. What breaks a rule is removed and reported as a
:class:`Breach` of a fixed :class:`BreachKind`, with a reason of bounded length.
"""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Collection
from dataclasses import dataclass
from enum import StrEnum, unique
from pathlib import Path

from arena import untrusted
from arena.errors import ConfigError
from arena.sandbox import tree
from arena.sandbox.limits import Limits
from arena.sandbox.runner_client import runner_tally


@unique
class BreachKind(StrEnum):
    """How a program broke the help-file rules."""

    TOO_MANY = "too_many_help_files"
    TOO_LARGE = "help_files_too_large"
    TOO_DEEP = "folders_too_deep"
    NOT_A_FILE = "not_a_regular_file"


@dataclass(frozen=True)
class Breach:
    """One broken rule: its kind and a reason naming (a few of) the files removed."""

    kind: BreachKind
    reason: str


@dataclass(frozen=True)
class Policed:
    """The help files kept after a decision, and what was removed."""

    kept: int
    breaches: tuple[Breach, ...]


def _is_arenas(name: str, info: os.stat_result, protected: Collection[str], program_uid: int | None) -> bool:
    """A file the arena wrote and the program cannot change: never a help file.

    Without a uid of its own (not root, rlimits only) the program could change anything, and the
    protected names are simply trusted.
    """
    if program_uid is None:
        return name in protected
    return (
        name in protected and info.st_uid != program_uid and info.st_nlink == 1 and stat.S_ISREG(info.st_mode)
    )


POLICE_BUDGET = 16 << 20
"""Bytes the policing walk may keep for the entries of one team folder (tree.scan's budget): 30,000 short
names take a few MB; a folder of 120,000 files with 2 KB paths would have taken the table process 280 MB."""


def _remove_all(root: int, protected: Collection[str], program_uid: int | None) -> Policed:
    """Remove every help file and folder: more of them than the policing walk may hold."""
    with os.scandir(root) as listing:  # one name at a time: there may be very many
        for item in listing:
            try:
                info = item.stat(follow_symlinks=False)
            except OSError:
                continue
            if not _is_arenas(item.name, info, protected, program_uid):
                tree.remove_entry(root, item.name)
    reason = (
        f"created help files and folders past what arena reads ({POLICE_BUDGET >> 20} MB of names); "
        "removed every help file and folder"
    )
    return Policed(0, (Breach(BreachKind.TOO_MANY, reason),))


def police(root: int, limits: Limits, *, protected: Collection[str], program_uid: int | None) -> Policed:
    """Remove what breaks the help-file rules in the open folder ``root`` (never following a link); say
    what and why.

    Extras beyond the count are removed newest first (folders are kept before files); then files,
    newest first, until the total size is within the limit.

    On the runner's road a folder that breaks no rule is counted by the runner's C (``tally.c``, the one
    counter there, as in the runner's own reply); only one that breaks a rule is walked here.
    """
    if program_uid is not None and (tally := runner_tally()) is not None:
        rules = (limits.help_files, limits.help_bytes_mb << 20, limits.folder_depth)
        if (count := tally.count(root, rules, protected, program_uid)) is not None:
            return Policed(count, ())
    scan = tree.scan(
        root,
        max_depth=limits.folder_depth,
        skip=lambda name, info: _is_arenas(name, info, protected, program_uid),
        budget=POLICE_BUDGET,
    )
    if scan.overflow:
        return _remove_all(root, protected, program_uid)
    breaches = []
    for kind, strays in _strays_by_kind(scan.strays).items():
        for stray in strays:
            tree.remove(root, stray.path)
        what = "folders nested too deep" if kind is BreachKind.TOO_DEEP else "entries not files or folders"
        reason = _reason(f"removed {what} ({len(strays)})", [stray.path for stray in strays], strays)
        breaches.append(Breach(kind, reason))
    entries = sorted(scan.entries, key=lambda e: (not e.is_dir, e.mtime_ns, e.path))
    kept, extra = entries[: limits.help_files], entries[limits.help_files :]
    if extra:
        for entry in reversed(extra):
            tree.remove(root, entry.path)
        gone = tuple(f"{entry.path}/" for entry in extra if entry.is_dir)
        kept = [entry for entry in kept if not entry.path.startswith(gone)]
        breaches.append(
            Breach(
                BreachKind.TOO_MANY,
                untrusted.capped(
                    f"created {len(entries)} help files and folders, the limit is {limits.help_files}; "
                    f"removed {untrusted.listing([entry.path for entry in extra])}"
                ),
            )
        )
    budget = limits.help_bytes_mb << 20
    files = [entry for entry in kept if not entry.is_dir]
    total = sum(entry.size for entry in files)
    removed = []
    while files and total > budget:
        entry = files.pop()
        total -= entry.size
        removed.append(entry)
        tree.remove(root, entry.path)
    if removed:
        breaches.append(
            Breach(
                BreachKind.TOO_LARGE,
                untrusted.capped(
                    f"help files exceed {limits.help_bytes_mb} MB in total; "
                    f"removed {untrusted.listing([entry.path for entry in removed])}"
                ),
            )
        )
    return Policed(len(kept) - len(removed), tuple(breaches))


SETTLED_NS = 2_000_000_000
"""A file whose status last changed this long before a snapshot read it is not read again while its inode,
size, modification and status-change times stay as they were. Longer than the kernel's coarse clock step
(a jiffy) plus the coarsest timestamps a team folder's file system may keep (whole seconds), so a later
change cannot leave the status-change time as it was."""

Stamp = tuple[int, int, int, int]
"""A regular file's inode, size, modification and status-change times (ns)."""


@dataclass(frozen=True)
class HelpFiles:
    """A snapshot of a team's help files: each file's bytes (a folder: None) by its ``/``-joined path (None
    when they exceed the cap), and the bytes of settled files by their stamps, for the next snapshot.

    A program can set a file's times but never its status-change time (ctime): any change of its bytes
    sets that to the clock's present reading. So a file whose ctime was already ``SETTLED_NS`` old when it
    was read (older than the clock's coarse granularity) and whose stamp is unchanged still holds the bytes
    read then.
    """

    files: dict[str, bytes | None] | None
    settled: dict[str, tuple[Stamp, bytes]]


def snapshot(
    root: int,
    limits: Limits,
    *,
    protected: Collection[str],
    program_uid: int | None,
    cap_bytes: int,
    previous: HelpFiles | None = None,
) -> HelpFiles:
    """The help files in the open folder ``root`` as they are: each file's bytes (a folder: None) by its
    ``/``-joined path, read beneath ``root`` without following links; None when they exceed ``cap_bytes``.

    The folder must not change while it is read (no program runs). Files settled in ``previous`` (see
    :class:`HelpFiles`) whose stamp is unchanged are taken from it instead of being read again.
    """
    known = previous.settled if previous is not None else {}
    scan = tree.scan(
        root,
        max_depth=limits.folder_depth,
        skip=lambda name, info: _is_arenas(name, info, protected, program_uid),
    )
    if sum(entry.size for entry in scan.entries) > cap_bytes:
        return HelpFiles(None, known)
    settled_before = time.time_ns() - SETTLED_NS
    found: dict[str, bytes | None] = {}
    settled: dict[str, tuple[Stamp, bytes]] = {}
    for entry in scan.entries:
        if entry.is_dir:
            found[entry.path] = None
            continue
        stamp = (entry.ino, entry.size, entry.mtime_ns, entry.ctime_ns)
        kept = known.get(entry.path)
        data = kept[1] if kept is not None and kept[0] == stamp else _read(root, entry)
        if data is None:
            continue  # changed meanwhile
        found[entry.path] = data
        if entry.ctime_ns < settled_before:
            settled[entry.path] = (stamp, data)
    return HelpFiles(found, settled)


def _read(root: int, entry: tree.Entry) -> bytes | None:
    """A help file's bytes (at most its size when scanned), beneath ``root``; None if it is not there."""
    parent, _, name = entry.path.rpartition("/")
    try:
        folder = tree.open_beneath(root, parent)
    except OSError:
        return None
    try:
        return tree.read_file(folder, name, entry.size)
    finally:
        os.close(folder)


def _strays_by_kind(strays: list[tree.Stray]) -> dict[BreachKind, list[tree.Stray]]:
    grouped: dict[BreachKind, list[tree.Stray]] = {}
    for stray in strays:
        kind = BreachKind.TOO_DEEP if stray.reason.startswith("a folder deeper") else BreachKind.NOT_A_FILE
        grouped.setdefault(kind, []).append(stray)
    return grouped


def _reason(head: str, paths: list[str], strays: list[tree.Stray]) -> str:
    first = strays[0]
    example = f"{untrusted.name(first.path)} is {first.reason}"
    return untrusted.capped(f"{head}: {untrusted.listing(paths)} ({example})")


def given_files(source: Path, limits: Limits) -> list[tree.Entry]:
    """The help files prepared in ``source`` for a team, checked: only regular files and folders, no
    link, within the count, size and depth limits; anything else is a ConfigError naming the file."""
    try:
        root = tree.open_folder(source)
    except OSError as error:
        raise ConfigError(f"help-files folder {source}: {error.strerror}") from error
    try:
        scan = tree.scan(root, max_depth=limits.folder_depth)
    finally:
        os.close(root)
    if scan.strays:
        stray = scan.strays[0]
        raise ConfigError(
            f"{source / untrusted.name(stray.path)} is {stray.reason}; help files must be regular files"
        )
    files = [entry for entry in scan.entries if not entry.is_dir]
    if len(scan.entries) > limits.help_files:
        raise ConfigError(
            f"{source} holds {len(files)} help files and {len(scan.entries) - len(files)} folders; "
            f"at most {limits.help_files} are allowed"
        )
    size = sum(entry.size for entry in files)
    if size > limits.help_bytes_mb << 20:
        raise ConfigError(f"the help files in {source} take {size} bytes; at most {limits.help_bytes_mb} MB")
    return scan.entries


def copy_given(source: Path, workdir: Path, limits: Limits) -> set[str]:
    """Copy checked help files from ``source`` into a team's work folder; their relative names."""
    entries = given_files(source, limits)
    caps = tree.Caps(limits.help_files, limits.folder_depth, limits.help_bytes_mb << 20)
    src, dst = tree.open_folder(source), tree.open_folder(workdir)
    try:
        strays = tree.copy_tree(src, dst, caps)
    finally:
        os.close(src)
        os.close(dst)
    if strays:
        raise ConfigError(f"{source / untrusted.name(strays[0].path)}: {strays[0].reason}")
    return {entry.path for entry in entries if not entry.is_dir}

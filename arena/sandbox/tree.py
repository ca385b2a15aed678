"""Work on a folder a program controls: beneath it, never following a link, within caps.

Every name is opened one component at a time relative to an open folder (``dir_fd``) with
``O_NOFOLLOW``, so a link, a swapped sub-folder or ``..`` can never lead out of the tree: the same
guarantee as ``openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS)``. Only regular files and folders are
kept or copied; anything else (a link, a FIFO, a socket, a device, a folder deeper than the cap) is a
:class:`Stray` with its reason. Walks never recurse deeper than their cap and removal holds a bounded
number of descriptors, so a 10,000-deep folder chain or a ``chmod 000`` folder ends nothing.

Standard library only: the sandbox helper uses it too, inside the sandbox, to empty ``/tmp``.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Callable, Collection, Generator, Iterator
from dataclasses import dataclass, field

DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
NEW_FILE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
REMOVE_DEPTH = 32  # descriptors held at once while removing; deeper folders are moved up first
CHUNK = 1 << 20


@dataclass(frozen=True)
class Entry:
    """A regular file or a folder found beneath the root (``path`` relative, ``/``-joined)."""

    path: str
    is_dir: bool
    size: int
    mtime_ns: int
    ino: int = 0
    ctime_ns: int = 0


@dataclass(frozen=True)
class Stray:
    """Something that may not be kept: its path and why, worded to follow "<path> is" (a symbolic link)."""

    path: str
    reason: str


@dataclass
class Scan:
    """What a walk found: entries kept in walk order, and strays."""

    entries: list[Entry] = field(default_factory=list)
    strays: list[Stray] = field(default_factory=list)
    overflow: bool = False
    """True when the walk stopped at its ``budget`` (entries and strays are then only a part)."""


def kind_of(mode: int) -> str:
    """What a file system object is, in words."""
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISDIR(mode):
        return "a folder"
    return "a regular file" if stat.S_ISREG(mode) else "an unknown kind of file"


def _join(prefix: str, name: str) -> str:
    return f"{prefix}/{name}" if prefix else name


def open_folder(path: str | os.PathLike[str]) -> int:
    """Open the root of a tree (its own path is trusted; nothing beneath it is)."""
    return os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)


def open_beneath(root_fd: int, relative: str, flags: int = DIR_FLAGS) -> int:
    """Open ``relative`` beneath ``root_fd`` one component at a time, never following a link."""
    parts = [part for part in relative.split("/") if part]
    if any(part in (".", "..") for part in parts):
        raise OSError(errno.EINVAL, f"not beneath the folder: {relative!r}")
    fd = os.dup(root_fd)
    try:
        for index, part in enumerate(parts):
            last = index == len(parts) - 1
            following = os.open(part, flags if last else DIR_FLAGS, dir_fd=fd)
            os.close(fd)
            fd = following
    except BaseException:
        os.close(fd)
        raise
    return fd


def _names(fd: int, *, in_order: bool) -> Generator[str, None, None]:
    """The names in an open folder: sorted, or as the folder lists them, one at a time (no list of them)."""
    try:
        if in_order:
            yield from sorted(os.listdir(fd))
            return
        with os.scandir(fd) as listing:
            for item in listing:
                yield item.name
    except OSError:
        return


ENTRY_COST = 200
"""What a kept entry costs the walker in bytes besides its path's text (the objects holding it)."""


def scan(
    root_fd: int,
    *,
    max_depth: int,
    skip: Callable[[str, os.stat_result], bool] = lambda name, info: False,
    budget: int | None = None,
) -> Scan:
    """Walk the tree without following links; folders deeper than ``max_depth`` levels are strays.

    ``skip(name, info)`` leaves out a top-level entry (e.g. files the arena wrote itself). Walks
    iteratively: depth is bounded by ``max_depth``, never by the interpreter's recursion limit. With a
    ``budget``, the walk stops (``overflow``) once the paths it keeps, at ``ENTRY_COST`` bytes each
    besides their text, would take more bytes than that: a folder of a million long names costs the
    walker its budget, not a million paths.
    """
    found = Scan()
    spent = 0
    pending: list[tuple[str, int]] = [("", 1)]  # folders still to list: no descriptor held while waiting
    while pending:
        prefix, depth = pending.pop()
        try:
            fd = open_beneath(root_fd, prefix)
        except OSError:
            continue  # changed meanwhile
        names = _names(fd, in_order=budget is None)
        for name in names:
            path = _join(prefix, name)
            try:
                info = os.stat(name, dir_fd=fd, follow_symlinks=False)
            except OSError:
                continue  # gone meanwhile
            if depth == 1 and skip(name, info):
                continue
            spent += ENTRY_COST + len(path)
            if budget is not None and spent > budget:
                names.close()
                os.close(fd)
                found.overflow = True
                return found
            if stat.S_ISREG(info.st_mode):
                found.entries.append(
                    Entry(path, False, info.st_size, info.st_mtime_ns, info.st_ino, info.st_ctime_ns)
                )
            elif not stat.S_ISDIR(info.st_mode):
                found.strays.append(Stray(path, kind_of(info.st_mode)))
            elif depth > max_depth:
                found.strays.append(Stray(path, f"a folder deeper than {max_depth} levels"))
            else:
                found.entries.append(Entry(path, True, 0, info.st_mtime_ns, info.st_ino, info.st_ctime_ns))
                pending.append((path, depth + 1))
        os.close(fd)
    return found


def remove(root_fd: int, relative: str) -> None:
    """Remove ``relative`` beneath ``root_fd`` whatever it is (folders with all they hold); never fails."""
    parent, _, name = relative.rpartition("/")
    with contextlib.suppress(OSError):
        fd = open_beneath(root_fd, parent)
        try:
            remove_entry(fd, name)
        finally:
            os.close(fd)


def remove_entry(dir_fd: int, name: str) -> None:
    """Remove ``name`` in the open folder ``dir_fd``, links unfollowed, at most REMOVE_DEPTH fds held.

    A folder nested deeper than that is first moved up into ``dir_fd`` under a fresh name, then removed
    in turn, so any depth is removed in linear work. Errors (an entry changed meanwhile) are swallowed.
    """
    queue = [name]
    while queue:
        with contextlib.suppress(OSError):
            _remove(dir_fd, queue.pop(), 1, dir_fd, queue)


def _remove(parent_fd: int, name: str, depth: int, top_fd: int, queue: list[str]) -> None:
    try:
        os.unlink(name, dir_fd=parent_fd)
        return
    except FileNotFoundError:
        return
    except (IsADirectoryError, PermissionError):
        pass
    fd = _open_folder_to_empty(parent_fd, name)
    try:
        for child in _emptying(fd):
            if depth < REMOVE_DEPTH:
                with contextlib.suppress(OSError):
                    _remove(fd, child, depth + 1, top_fd, queue)
            else:
                moved = f".removing-{os.urandom(8).hex()}"
                with contextlib.suppress(OSError):
                    os.rename(child, moved, src_dir_fd=fd, dst_dir_fd=top_fd)
                    queue.append(moved)
    finally:
        os.close(fd)
    os.rmdir(name, dir_fd=parent_fd)


def _emptying(fd: int) -> Iterator[str]:
    """The names in an open folder one at a time, for the caller to take each out; listed again until
    it is empty or a listing took nothing out (what cannot be removed stays). No list of the names is
    held, however many there are."""
    while True:
        seen = taken = 0
        with os.scandir(fd) as listing:
            for item in listing:
                seen += 1
                yield item.name
                try:
                    os.stat(item.name, dir_fd=fd, follow_symlinks=False)
                except FileNotFoundError:
                    taken += 1
                except OSError:
                    pass
        if not seen or not taken:
            return


def _open_folder_to_empty(parent_fd: int, name: str) -> int:
    """Open a folder to list and empty it; its owner (the helper, inside) first gives itself rights (a
    folder left 0500 can be listed but not emptied; one left 0000 not even opened)."""
    try:
        fd = os.open(name, DIR_FLAGS, dir_fd=parent_fd)
    except PermissionError:
        pass
    else:
        if os.fstat(fd).st_mode & 0o700 != 0o700:
            with contextlib.suppress(OSError):  # not its owner: what it may remove is removed
                os.chmod(fd, 0o700)
        return fd
    path_fd = os.open(name, os.O_PATH | DIR_FLAGS, dir_fd=parent_fd)
    try:
        os.chmod(f"/proc/self/fd/{path_fd}", 0o700)  # the very folder just opened, not a link
    finally:
        os.close(path_fd)
    return os.open(name, DIR_FLAGS, dir_fd=parent_fd)


def empty(root_fd: int) -> None:
    """Remove everything in an open folder; never fails."""
    try:
        names = os.listdir(root_fd)
    except OSError:
        return
    for name in names:
        remove_entry(root_fd, name)


def read_file(dir_fd: int, name: str, limit: int) -> bytes | None:
    """The bytes of a regular file (at most ``limit``), never through a link; None if it is not one."""
    try:
        fd = os.open(name, FILE_FLAGS, dir_fd=dir_fd)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        chunks, left = [], limit
        while left > 0:
            chunk = os.read(fd, min(CHUNK, left))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


@dataclass(frozen=True)
class Caps:
    """How much a copy may take: entries (files and folders), folder depth, bytes of files."""

    entries: int
    depth: int
    bytes: int


def copy_tree(
    src_fd: int, dst_fd: int, caps: Caps, *, owner: int | None = None, skip: Collection[str] = ()
) -> list[Stray]:
    """Copy regular files and folders from one open folder into another, but the paths in ``skip``; the
    strays left behind.

    Sizes come from reading (at most what is left of ``caps.bytes``), never from a file's claimed
    length, so a sparse file cannot make the copy large. The destination must be one no program can
    change meanwhile; ``owner`` (a uid) gets what is copied.
    """
    strays: list[Stray] = []
    left_entries, left_bytes = caps.entries, caps.bytes
    found = scan(src_fd, max_depth=caps.depth)
    strays += found.strays
    for entry in found.entries:
        if entry.path in skip:
            continue
        if left_entries <= 0:
            strays.append(Stray(entry.path, f"past the {caps.entries} entries copied out"))
            continue
        parent, _, name = entry.path.rpartition("/")
        try:
            target = open_beneath(dst_fd, parent)
        except OSError:
            strays.append(Stray(entry.path, "in a folder that could not be copied"))
            continue
        try:
            if entry.is_dir:
                os.mkdir(name, 0o755, dir_fd=target)
                if owner is not None:
                    os.chown(name, owner, owner, dir_fd=target, follow_symlinks=False)
                left_entries -= 1
                continue
            source = open_beneath(src_fd, parent)
            try:
                data = read_file(source, name, left_bytes + 1)
            finally:
                os.close(source)
            if data is None:
                strays.append(Stray(entry.path, "no longer a regular file (changed while copied)"))
            elif len(data) > left_bytes:
                strays.append(Stray(entry.path, f"past the {caps.bytes} bytes copied out"))
            else:
                write_new_file(target, name, data, 0o644, owner=owner)
                left_entries -= 1
                left_bytes -= len(data)
        except OSError as error:
            strays.append(Stray(entry.path, f"a file that could not be copied ({error.strerror})"))
        finally:
            os.close(target)
    return strays


def write_new_file(dir_fd: int, name: str, data: bytes, mode: int, *, owner: int | None = None) -> None:
    """Create ``name`` (it must not exist, and is never a link) holding ``data``."""
    fd = os.open(name, NEW_FILE_FLAGS, mode, dir_fd=dir_fd)
    try:
        if owner is not None:
            os.fchown(fd, owner, owner)
        os.fchmod(fd, mode)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    finally:
        os.close(fd)

"""A team folder copied into its sandbox at start-up and out of it at close, within caps, links unfollowed."""

from __future__ import annotations

import os
from collections.abc import Collection
from pathlib import Path

from arena.sandbox import tree
from arena.sandbox.limits import Limits
from arena.sandbox.startup import TEAM_EXTRA_MB

COPY_EXTRA_ENTRIES = 16  # the protocol files, with room to spare


def copy_caps(limits: Limits, build_products: int) -> tree.Caps:
    """What a team folder may hold when copied in or out: what its tmpfs can hold, help files and
    ``build_products`` counted, in files and folders, depth and bytes read."""
    return tree.Caps(
        entries=limits.help_files + build_products + COPY_EXTRA_ENTRIES,
        depth=limits.folder_depth,
        bytes=(limits.help_bytes_mb + TEAM_EXTRA_MB) << 20,
    )


def copy_in(workdir: Path, folder: Path, caps: tree.Caps, owner: int | None) -> list[tree.Stray]:
    """Bring what the arena put in ``workdir`` (help files given) into the box's team ``folder``, as
    ``owner``'s; return what was left behind."""
    if not workdir.is_dir():
        return []
    source, target = tree.open_folder(workdir), tree.open_folder(folder)
    try:
        return tree.copy_tree(source, target, caps, owner=owner)
    finally:
        os.close(source)
        os.close(target)


def give_to_program(folder: Path, uid: int | None, depth: int) -> None:
    """Files carried in from earlier runs belong to the sandbox's ``uid`` (the folder stays root's)."""
    if uid is None:
        return
    root = tree.open_folder(folder)
    try:
        for entry in tree.scan(root, max_depth=depth).entries:
            os.chown(entry.path, uid, uid, dir_fd=root, follow_symlinks=False)
    finally:
        os.close(root)


def copy_out(source: int | Path, workdir: Path, caps: tree.Caps, skip: Collection[str]) -> list[tree.Stray]:
    """Copy the team folder (``source``: its path, or opened already and closed here) into ``workdir``,
    emptied first, but for ``skip``; return what was left behind."""
    workdir.mkdir(parents=True, exist_ok=True)
    target = tree.open_folder(workdir)
    try:
        tree.empty(target)
        opened = tree.open_folder(source) if isinstance(source, Path) else source
        try:
            return tree.copy_tree(opened, target, caps, skip=skip)
        finally:
            os.close(opened)
    finally:
        os.close(target)

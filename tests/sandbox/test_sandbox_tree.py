"""Work on a tree a program controls (arena/sandbox/tree.py): beneath it, no link followed, within caps."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.sandbox import tree


@pytest.fixture
def root(tmp_path: Path) -> Iterator[tuple[Path, int]]:
    folder = tmp_path / "team"
    folder.mkdir()
    fd = tree.open_folder(folder)
    try:
        yield folder, fd
    finally:
        os.close(fd)


def chain(folder: Path, depth: int) -> None:
    fd = tree.open_folder(folder)
    for _ in range(depth):
        os.mkdir("d", dir_fd=fd)
        deeper = os.open("d", tree.DIR_FLAGS, dir_fd=fd)
        os.close(fd)
        fd = deeper
    os.close(fd)


def test_scan_keeps_files_and_folders_and_names_the_rest(root: tuple[Path, int], tmp_path: Path) -> None:
    folder, fd = root
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("secret")
    (folder / "notes").mkdir()
    (folder / "notes" / "a.txt").write_text("abc")
    (folder / "link").symlink_to(outside)
    os.mkfifo(folder / "pipe")
    with socket.socket(socket.AF_UNIX) as listener:
        listener.bind(str(folder / "sock"))
        found = tree.scan(fd, max_depth=8)
    kept = [(entry.path, entry.is_dir, entry.size) for entry in found.entries]
    assert kept == [("notes", True, 0), ("notes/a.txt", False, 3)]
    assert {(s.path, s.reason) for s in found.strays} == {
        ("link", "a symbolic link"),
        ("pipe", "a FIFO"),
        ("sock", "a socket"),
    }


@pytest.mark.slow
def test_a_5000_deep_chain_is_scanned_to_the_cap_and_removed(root: tuple[Path, int]) -> None:
    folder, fd = root
    (folder / "top").mkdir()
    chain(folder / "top", 5000)
    found = tree.scan(fd, max_depth=8)
    assert len(found.entries) == 8 and [s.reason for s in found.strays] == ["a folder deeper than 8 levels"]
    tree.remove_entry(fd, "top")
    assert os.listdir(fd) == []


def test_removal_never_follows_a_link(root: tuple[Path, int], tmp_path: Path) -> None:
    folder, fd = root
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "keep.txt").write_text("keep")
    (folder / "sub").mkdir()
    (folder / "sub" / "way_out").symlink_to(victim)
    tree.remove(fd, "sub/way_out")
    tree.remove_entry(fd, "sub")
    assert (victim / "keep.txt").read_text() == "keep"
    with pytest.raises(OSError):
        tree.open_beneath(fd, "../victim")
    (folder / "hop").symlink_to(victim)
    with pytest.raises(OSError):
        tree.open_beneath(fd, "hop")


def test_a_copy_reads_at_most_its_byte_cap_and_copies_no_link(root: tuple[Path, int], tmp_path: Path) -> None:
    folder, fd = root
    with open(folder / "sparse", "wb") as sparse:
        sparse.truncate(1 << 40)  # claims a terabyte, holds nothing
    (folder / "small.txt").write_text("ok")
    (folder / "passwd").symlink_to("/etc/passwd")
    target = tmp_path / "copy"
    target.mkdir()
    out = tree.open_folder(target)
    try:
        strays = tree.copy_tree(fd, out, tree.Caps(entries=10, depth=4, bytes=1 << 20))
    finally:
        os.close(out)
    assert sorted(os.listdir(target)) == ["small.txt"]
    assert {(s.path, s.reason) for s in strays} == {
        ("sparse", f"past the {1 << 20} bytes copied out"),
        ("passwd", "a symbolic link"),
    }


def test_a_file_the_copy_cannot_write_is_a_stray_worded_to_follow_its_name(
    root: tuple[Path, int], tmp_path: Path
) -> None:
    folder, fd = root
    (folder / "deal.txt").write_text("new")
    target = tmp_path / "copy"
    target.mkdir()
    (target / "deal.txt").write_text("already there")  # a copy is never written over
    out = tree.open_folder(target)
    try:
        strays = tree.copy_tree(fd, out, tree.Caps(entries=10, depth=4, bytes=1 << 20))
    finally:
        os.close(out)
    assert (target / "deal.txt").read_text() == "already there"
    assert [f"{s.path} is {s.reason}" for s in strays] == [
        "deal.txt is a file that could not be copied (File exists)"
    ]

"""Collusion, sender half: tell a partner at the same table its hole cards through the page cache.

The sandboxes share the host's read-only ``/usr``, and with it the kernel's page cache of its files.
Each decision this program drops 53 pages of a large library nobody loads (one page per card, 64 pages
apart) from the cache (``posix_fadvise(DONTNEED)``, allowed on a read-only file) and reads back the two
pages of its own hole cards. ``PageCacheReceiver.py`` times reads of the same pages: the two fast ones
are the cards. Answers 0 like ``Checker.py``.
"""
import os

# the channel: one page per card of a large library both sandboxes see (the same in both programs)
LIBRARIES = ("/usr/lib/x86_64-linux-gnu/libLLVM-14.so.1", "/usr/lib/x86_64-linux-gnu/libLLVM-15.so.1")
PAGE, STRIDE, SLOTS = 4096, 64 * 4096, 53


def page_fd():
    for path in LIBRARIES:
        try:
            return os.open(path, os.O_RDONLY)
        except OSError:
            continue
    return None


def read_slot(fd, card):
    os.pread(fd, 1, card * STRIDE)


def forget_all(fd):
    for card in range(SLOTS):
        os.posix_fadvise(fd, card * STRIDE, PAGE, os.POSIX_FADV_DONTNEED)

with open("inputf.txt") as given:
    first, second = given.read().split()[:2]
fd = page_fd()
if fd is not None:
    forget_all(fd)
    for card in (int(first), int(second)):
        if 1 <= card < SLOTS:
            read_slot(fd, card)
with open("outputf.txt", "w") as answer:
    answer.write("0\n")

"""Collusion through the page cache: two teams at one table pass hole cards (staged as
``PageCacheSender.py`` and ``PageCacheReceiver.py``; the name says which half this copy plays).

The sandboxes share the host's read-only ``/usr``, and with it the kernel's page cache of its files.
The sender, each decision, drops 53 pages of a large library nobody loads (one page per card, 64 pages
apart) from the cache (``posix_fadvise(DONTNEED)``, allowed on a read-only file) and reads back the pages
of its two hole cards. The receiver times a one-byte read of each card's page: the two reads much faster
than the rest were cached by the sender. Its guess goes to ``guesses.txt`` (a help file) as
``deal stage card card``; then it drops the pages again. Both answer 0 like ``Checker.py``.
"""
import os
import time

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


def send(fd):
    with open("inputf.txt") as given:
        first, second = given.read().split()[:2]
    forget_all(fd)
    for card in (int(first), int(second)):
        if 1 <= card < SLOTS:
            read_slot(fd, card)


def receive(fd):
    with open("deals_money.txt") as money:
        deal = money.read().split()[1]
    with open("deal.txt") as table:
        stage = next((line.split()[1] for line in table if line.startswith("Stage")), "?")
    took = {}
    for card in range(1, SLOTS):
        start = time.perf_counter_ns()
        read_slot(fd, card)
        took[card] = time.perf_counter_ns() - start
    fastest = sorted(took, key=took.get)
    median = sorted(took.values())[len(took) // 2]
    if took[fastest[1]] * 3 < median:
        with open("guesses.txt", "a") as guesses:
            guesses.write(f"{deal} {stage} {fastest[0]} {fastest[1]}\n")
    forget_all(fd)


fd = page_fd()
if fd is not None:
    (send if "Sender" in os.path.basename(__file__) else receive)(fd)
with open("outputf.txt", "w") as answer:
    answer.write("0\n")

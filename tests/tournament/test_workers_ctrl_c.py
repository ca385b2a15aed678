"""Ctrl-C and the local worker processes: the tournament hears every Ctrl-C, its workers none."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Iterator

import psutil
import pytest

from arena.tournament.workers import LocalPool, _spawned_deaf_to_ctrl_c

WAIT_S = 120


@pytest.fixture
def ctrl_c_raises() -> Iterator[None]:
    """SIGINT at Python's default (a test runner's worker may have it otherwise)."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


def test_a_ctrl_c_while_workers_are_spawned_reaches_the_tournament_after(ctrl_c_raises) -> None:
    """The window in which workers start is not one in which a Ctrl-C is lost, nor one it interrupts (a
    worker forked but not yet given its start-up data would die with a traceback)."""
    listener = threading.Event()
    thread = threading.Thread(target=listener.wait)  # a thread that does not block SIGINT, as rich's
    thread.start()
    read, write = os.pipe()
    os.set_blocking(write, False)
    previous = signal.set_wakeup_fd(write)
    reached = []
    try:
        with pytest.raises(KeyboardInterrupt), _spawned_deaf_to_ctrl_c():
            assert thread.ident is not None
            signal.pthread_kill(thread.ident, signal.SIGINT)
            assert os.read(read, 1) == bytes([signal.SIGINT])  # its C handler ran: Python's is due
            reached.append("the rest of the window")
        assert reached == ["the rest of the window"]
        # a Ctrl-C sent to this thread, where it is blocked, waits for the window's end
        with pytest.raises(KeyboardInterrupt), _spawned_deaf_to_ctrl_c():
            signal.raise_signal(signal.SIGINT)
            reached.append("the rest of the second window")
        assert reached[-1] == "the rest of the second window"
    finally:
        signal.set_wakeup_fd(previous)
        listener.set()
        thread.join()
        os.close(read)
        os.close(write)
    assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, [])


def test_a_worker_ignores_a_ctrl_c_sent_as_it_starts_and_after(ctrl_c_raises) -> None:
    pool = LocalPool(1)
    try:
        with _spawned_deaf_to_ctrl_c():
            answer = pool.pool.submit(signal.getsignal, signal.SIGINT)
        for child in psutil.Process().children():
            with contextlib.suppress(psutil.NoSuchProcess):  # another test's child may just have ended
                if "--multiprocessing-fork" in child.cmdline():
                    os.kill(child.pid, signal.SIGINT)  # most likely before its initializer ran
        assert answer.result(timeout=WAIT_S) == signal.SIG_IGN
        pid = pool.pool.submit(os.getpid).result(timeout=WAIT_S)
        os.kill(pid, signal.SIGINT)
        assert pool.pool.submit(signal.pthread_sigmask, signal.SIG_BLOCK, []).result(timeout=WAIT_S) == set()
        assert pool.pool.submit(os.getpid).result(timeout=WAIT_S) == pid
    finally:
        pool.pool.shutdown(cancel_futures=True)

"""The seccomp filter every team program runs under: system calls no contest program needs are denied.

A classic BPF program, assembled here and installed by the sandbox helper on itself (so every program it
starts inherits it, and nothing can remove it). Standard library only: the helper imports it inside the
sandbox. The filter, in order:

1. a system call of another architecture than the helper's (e.g. ``int 0x80`` on x86-64) kills the process;
2. x32 system calls (x86-64 numbers with bit 30 set) fail with EPERM;
3. every call in :data:`DENIED` fails with EPERM: keyrings, new namespaces, mounts, tracing, io_uring,
   perf events, BPF, POSIX message queues, userfaultfd;
4. setting an extended attribute (:data:`UNSUPPORTED`) fails with EOPNOTSUPP, as on a file system
   without them: they would be storage the help-file rules do not see;
5. the page cache cannot be read back exactly or emptied (issue 24: a team read its opponents' cards from
   its own earlier rotations of a duplicate deck through the cache of a shared library): ``mincore`` and
   ``cachestat`` (which pages are cached), ``fadvise64`` and ``process_madvise`` (drop them) fail with
   EPERM, as do ``madvise`` with ``MADV_COLD`` or ``MADV_PAGEOUT`` and ``preadv2``/``pwritev2`` with
   ``RWF_NOWAIT`` (a read that fails unless the page is cached); other ``madvise`` and ``preadv2`` calls
   are allowed;
6. ``clone3`` fails with ENOSYS, so the C library falls back to ``clone``, whose flags a filter can see;
7. ``clone`` with any ``CLONE_NEW*`` flag fails with EPERM (threads, ``fork``, ``CLONE_PARENT`` are allowed:
   what they start is ended with the decision's cgroup);
8. everything else is allowed.
"""

from __future__ import annotations

import ctypes
import errno
import os
import struct

# name -> (x86-64 number, aarch64 number)
DENIED = {
    "keyctl": (250, 219),
    "add_key": (248, 217),
    "request_key": (249, 218),
    "unshare": (272, 97),
    "setns": (308, 268),
    "mount": (165, 40),
    "umount2": (166, 39),
    "pivot_root": (155, 41),
    "open_tree": (428, 428),
    "move_mount": (429, 429),
    "fsopen": (430, 430),
    "fsconfig": (431, 431),
    "fsmount": (432, 432),
    "fspick": (433, 433),
    "mount_setattr": (442, 442),
    "ptrace": (101, 117),
    "process_vm_readv": (310, 270),
    "process_vm_writev": (311, 271),
    "io_uring_setup": (425, 425),
    "io_uring_enter": (426, 426),
    "io_uring_register": (427, 427),
    "perf_event_open": (298, 241),
    "bpf": (321, 280),
    "mq_open": (240, 180),
    "userfaultfd": (323, 282),
    # the page cache (step 5)
    "mincore": (27, 232),
    "cachestat": (451, 451),
    "fadvise64": (221, 223),
    "process_madvise": (440, 440),
}
# Extended attributes would be storage the help-file rules do not see: setting one fails as unsupported.
UNSUPPORTED = {
    "setxattr": (188, 5),
    "lsetxattr": (189, 6),
    "fsetxattr": (190, 7),
    "setxattrat": (463, 463),
}
MADVISE = (28, 233)
CACHE_ADVICE = (20, 21)  # MADV_COLD, MADV_PAGEOUT
NOWAIT_CALLS = {"preadv2": (327, 286), "pwritev2": (328, 287)}
RWF_NOWAIT = 0x8
CLONE = (56, 220)
CLONE3 = (435, 435)
ARCHITECTURES = {"x86_64": (0, 0xC000003E), "aarch64": (1, 0xC00000B7)}  # machine -> (column, AUDIT_ARCH)
CLONE_NEW_FLAGS = 0x7E020000  # NEWNS | NEWCGROUP | NEWUTS | NEWIPC | NEWUSER | NEWPID | NEWNET
X32_SYSCALL_BIT = 0x40000000

LOAD_WORD = 0x20  # BPF_LD | BPF_W | BPF_ABS
JUMP_EQUAL, JUMP_GREATER_EQUAL, JUMP_SET = 0x15, 0x35, 0x45  # BPF_JMP | BPF_JEQ/JGE/JSET | BPF_K
RETURN = 0x06  # BPF_RET | BPF_K
ALLOW, KILL_PROCESS, ERRNO = 0x7FFF0000, 0x80000000, 0x00050000
NR_OFFSET, ARCH_OFFSET, ARG0_OFFSET = 0, 4, 16  # in struct seccomp_data (arg0's low word: little-endian)
ARG_SIZE = 8
PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 22, 2


def _insn(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    return struct.pack("HBBI", code, jt, jf, k)


def filter_program(machine: str) -> bytes:
    """The filter's instructions for one architecture (``os.uname().machine``)."""
    if machine not in ARCHITECTURES:
        raise OSError(errno.ENOSYS, f"no seccomp filter for the {machine} architecture")
    column, audit_arch = ARCHITECTURES[machine]
    denied_errno = ERRNO | errno.EPERM
    program = [
        _insn(LOAD_WORD, ARCH_OFFSET),
        _insn(JUMP_EQUAL, audit_arch, 1, 0),
        _insn(RETURN, KILL_PROCESS),
        _insn(LOAD_WORD, NR_OFFSET),
    ]
    if machine == "x86_64":
        program += [_insn(JUMP_GREATER_EQUAL, X32_SYSCALL_BIT, 0, 1), _insn(RETURN, denied_errno)]
    for numbers in DENIED.values():
        program += [_insn(JUMP_EQUAL, numbers[column], 0, 1), _insn(RETURN, denied_errno)]
    for numbers in UNSUPPORTED.values():
        program += [_insn(JUMP_EQUAL, numbers[column], 0, 1), _insn(RETURN, ERRNO | errno.EOPNOTSUPP)]
    program += [  # madvise: the two advices that push pages out of the cache
        _insn(JUMP_EQUAL, MADVISE[column], 0, 5),
        _insn(LOAD_WORD, ARG0_OFFSET + 2 * ARG_SIZE),
        _insn(JUMP_EQUAL, CACHE_ADVICE[0], 2, 0),
        _insn(JUMP_EQUAL, CACHE_ADVICE[1], 1, 0),
        _insn(RETURN, ALLOW),
        _insn(RETURN, denied_errno),
    ]
    preadv2, pwritev2 = (numbers[column] for numbers in NOWAIT_CALLS.values())
    program += [  # preadv2, pwritev2: RWF_NOWAIT in their flags (the sixth argument)
        _insn(JUMP_EQUAL, preadv2, 1, 0),
        _insn(JUMP_EQUAL, pwritev2, 0, 4),
        _insn(LOAD_WORD, ARG0_OFFSET + 5 * ARG_SIZE),
        _insn(JUMP_SET, RWF_NOWAIT, 1, 0),
        _insn(RETURN, ALLOW),
        _insn(RETURN, denied_errno),
    ]
    program += [
        _insn(JUMP_EQUAL, CLONE3[column], 0, 1),
        _insn(RETURN, ERRNO | errno.ENOSYS),
        _insn(JUMP_EQUAL, CLONE[column], 0, 3),
        _insn(LOAD_WORD, ARG0_OFFSET),
        _insn(JUMP_SET, CLONE_NEW_FLAGS, 0, 1),
        _insn(RETURN, denied_errno),
        _insn(RETURN, ALLOW),
    ]
    return b"".join(program)


class _Program(ctypes.Structure):
    _fields_ = [("length", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def install_seccomp_filter() -> None:
    """Install the filter on this process (needs ``no_new_privs`` or CAP_SYS_ADMIN); raise on failure."""
    code = filter_program(os.uname().machine)
    buffer = ctypes.create_string_buffer(code, len(code))
    program = _Program(len(code) // 8, ctypes.cast(buffer, ctypes.c_void_p))
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(program), 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "could not install the seccomp filter")

"""The compiled rollouts, called through ctypes; built on first use (see :mod:`arena.compiled`).

``rollouts.c`` (Monte-Carlo showdowns, its interface in ``rollouts.h``) is built as a shared library:
``rollout_kernel()`` is the compiled form of :mod:`arena.evaluator.rollouts`' rollouts, or None where no C
compiler is installed (or ``ARENA_NO_KERNELS`` is set), in which case the numpy path runs. Both paths draw
the same uniforms from the caller's generator and rank hands with the same tables, so they give the same
answers, draw for draw. :func:`load_kernel` builds the rollouts together with another kernel that calls
them (the heads-up judge's hand loop) into a library of its own.
"""

from __future__ import annotations

import ctypes
import functools
import os
from pathlib import Path

import numpy as np

from arena.compiled import (
    SANITIZE,
    build_flags,
    cache_folder,
    compiled,
    sanitizer_loaded,
    sanitizer_preload,
    sanitizing,
)
from arena.errors import ArenaError
from arena.evaluator.batch import BIASED_OFFSET, ROW_BITS, hash_tables
from arena.evaluator.card_keys import FLUSH_BITS, FLUSH_STRENGTHS_ARRAY, RANK_MASK, SUIT_BITS, card_key_array
from arena.evaluator.ranking import RANKS

SOURCE = Path(__file__).with_name("rollouts.c")
HEADERS = (Path(__file__).with_name("rollouts.h"),)
FLAGS = build_flags("shared")
DISABLE = "ARENA_NO_KERNELS"

_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype = ctypes.c_void_p
_capsule_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]


def bitgen_address(rng: np.random.Generator) -> int:
    """The address of ``rng``'s numpy ``bitgen_t``, through which the kernels draw what ``rng`` would."""
    address: int = _capsule_pointer(rng.bit_generator.capsule, b"BitGenerator")
    return address


_I64 = ctypes.c_int64


class RolloutKernel:
    """``arena_rollouts`` of ``rollouts.c``, with the evaluator's tables handed over once."""

    def __init__(self, library: ctypes.CDLL, path: Path) -> None:
        self.library = library
        self.path = path
        tables = hash_tables()
        # Only the order of strengths matters to a rollout: both strength tables as dense ranks (uint16,
        # order kept) take a quarter of the cache of the evaluator's int32 and int64 ones.
        plain = np.asarray(tables.strengths)
        _, ranks = np.unique(np.concatenate([plain, FLUSH_STRENGTHS_ARRAY]), return_inverse=True)
        # the arrays stay referenced here for as long as the library reads them
        self._arrays = (
            np.ascontiguousarray(tables.displacements, dtype=np.int32),
            np.ascontiguousarray(ranks[: plain.size], dtype=np.uint16),
            np.ascontiguousarray(ranks[plain.size :], dtype=np.uint16),
            np.ascontiguousarray(card_key_array(), dtype=np.int64),
        )
        displacements, strengths, flushes, keys = self._arrays
        library.arena_rollouts_tables.restype = None
        library.arena_rollouts_tables(
            ctypes.c_void_p(displacements.ctypes.data),
            _I64(displacements.size),
            ctypes.c_void_p(strengths.ctypes.data),
            _I64(strengths.size),
            ctypes.c_void_p(flushes.ctypes.data),
            _I64(flushes.size),
            ctypes.c_void_p(keys.ctypes.data),
            *(_I64(value) for value in (BIASED_OFFSET, SUIT_BITS, ROW_BITS, FLUSH_BITS, RANK_MASK, RANKS)),
        )
        run = library.arena_rollouts
        run.restype = ctypes.c_int
        run.argtypes = [
            ctypes.c_void_p,  # numpy's bitgen_t
            ctypes.c_uint64,  # the known cards' mask
            ctypes.c_int,  # cards each rollout deals
            *[_I64] * 5,  # hero key and bits, board key and bits, samples
            ctypes.c_void_p,  # int64[2]: wins, ties
            ctypes.c_void_p,  # int8 per rollout, or NULL
        ]
        self._run = run
        self._counts = np.zeros(2, dtype=np.int64)
        self._counts_address = self._counts.ctypes.data
        self._generator: object = None  # the last bit generator seen, and its bitgen_t's address
        self._bitgen = 0

    def rollouts(
        self,
        rng: np.random.Generator,
        known: int,
        unknown: int,
        sums: tuple[int, int, int, int],
        samples: int,
        outcomes: np.ndarray | None = None,
    ) -> tuple[int, int]:
        """(wins, ties) of ``samples`` rollouts drawn from ``rng``; +1/0/-1 each into int8 ``outcomes``.

        ``known`` has a bit per card out of the rollouts' reach (hero, board, excluded); ``sums`` are
        the known cards' (hero key, hero bits, board key, board bits), the hero's over hero and board.
        """
        generator = rng.bit_generator
        if generator is not self._generator:  # the match's RATE stream comes back call after call
            self._generator = generator
            self._bitgen = bitgen_address(rng)
        with generator.lock:
            failed = self._run(
                self._bitgen,
                known,
                unknown,
                *sums,
                samples,
                self._counts_address,
                None if outcomes is None else outcomes.ctypes.data,
            )
        if failed:
            raise ValueError(f"no rollout deals {unknown} of {52 - known.bit_count()} unseen cards")
        return int(self._counts[0]), int(self._counts[1])


@functools.cache
def rollout_kernel() -> RolloutKernel | None:
    """The compiled rollouts, or None (no C compiler, or ``ARENA_NO_KERNELS`` set)."""
    return load_kernel("rollouts")


def load_kernel(name: str, more: tuple[Path, ...] = ()) -> RolloutKernel | None:
    """The rollouts built with the ``more`` sources (which include ``rollouts.h``) into the library
    ``name``, loaded; None without a C compiler or with ``ARENA_NO_KERNELS`` set."""
    if os.environ.get(DISABLE):
        return None
    if sanitizing() and not sanitizer_loaded():  # loading it would end the process (ASan must come first)
        preload = sanitizer_preload() or "the compiler's libasan.so"
        raise ArenaError(
            f"{SANITIZE}=1 builds a sanitized kernel, which loads only with LD_PRELOAD={preload}"
        )
    flags = (*FLAGS, f"-I{SOURCE.parent}") if more else FLAGS
    path = compiled(SOURCE, flags, cache_folder("kernels"), more, HEADERS, name=name)
    if path is None:
        return None
    try:
        return RolloutKernel(ctypes.CDLL(str(path)), path)
    except OSError:
        return None

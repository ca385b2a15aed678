"""Find the evaluator's rank keys again: the offline search behind ``arena.evaluator.card_keys.RANK_KEYS``.

    python tools/derive_rank_keys.py [--ranks 13]

prints the keys it finds and whether they are the ones the evaluator uses (exit status 1 when not). The
search takes about a minute for all 13 ranks; tests/evaluator/test_evaluator.py runs it for the first seven.
Scripts in tools/ are run from a checkout, never imported by the arena package.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # runnable from a checkout without installing

from arena.evaluator.card_keys import MAX_CARDS, MAX_OF_A_RANK, RANK_KEYS
from arena.evaluator.ranking import RANKS


def derive_rank_keys(ranks: int = RANKS) -> list[int]:
    """Smallest keys, rank by rank, keeping all multiset sums distinct (how ``RANK_KEYS`` was found).

    A candidate key ``k`` for a new rank fails when two multisets ``m1 + c1*k`` and ``m2 + c2*k`` of the
    earlier ranks (``c1 > c2`` copies of the new rank, sizes within seven) collide, i.e. when
    ``(c1 - c2) * k`` is a difference of two earlier sums. Those differences come from a
    cross-correlation of the earlier sums' indicator arrays, done by FFT. The 13 ranks take about a
    minute.
    """
    keys: list[int] = []
    by_size = [np.array([0], dtype=np.int64)] + [np.zeros(0, dtype=np.int64)] * MAX_CARDS
    for _ in range(ranks):
        top = max(int(sums.max()) for sums in by_size if sums.size)
        within = np.zeros(top + 1)
        up_to: list[np.ndarray] = []
        for sums in by_size:
            within[sums] = 1.0
            up_to.append(within.copy())
        length = 1 << (2 * top + 2).bit_length()
        spectra = [np.fft.rfft(u, length) for u in up_to]
        bad = np.zeros(top + 2, dtype=bool)
        bad[0] = True
        for c1 in range(1, MAX_OF_A_RANK + 1):
            for c2 in range(c1):
                corr = np.fft.irfft(np.conj(spectra[MAX_CARDS - c1]) * spectra[MAX_CARDS - c2], length)
                lags = np.flatnonzero(corr[: top + 1] > 0.5)
                multiples = lags[lags % (c1 - c2) == 0] // (c1 - c2)
                bad[multiples[multiples < bad.size]] = True
        key = int(np.flatnonzero(~bad)[0]) if not bad.all() else bad.size
        keys.append(key)
        by_size = [
            np.unique(np.concatenate([by_size[s - c] + c * key for c in range(min(MAX_OF_A_RANK, s) + 1)]))
            for s in range(MAX_CARDS + 1)
        ]
    return keys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ranks", type=int, default=RANKS, help=f"ranks to find keys for (default {RANKS})")
    args = parser.parse_args(argv)
    keys = derive_rank_keys(args.ranks)
    same = keys == list(RANK_KEYS[: args.ranks])
    print(", ".join(map(str, keys)))
    verdict = "the same as" if same else "DIFFERENT from"
    print(f"{verdict} arena.evaluator.card_keys.RANK_KEYS")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())

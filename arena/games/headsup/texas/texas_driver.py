"""Runs a Python texas player (a module defining ``make_decision(state)``) on the heads-up line protocol.

Usage: ``python texas_driver.py PLAYER.py``. The player's own prints go to stderr; RATE and ACTION
lines go to the judge on the real stdout.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

sys.path.insert(0, str(Path(__file__).resolve().parent))

import texas


def _load(path: str) -> Callable[[Any], object]:
    spec = importlib.util.spec_from_file_location(Path(path).stem, path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    decide = getattr(module, "make_decision", None) or getattr(module, "makeDecision", None)
    if not callable(decide):
        raise SystemExit(f"{path} defines no make_decision(state)")
    return cast(Callable[[Any], object], decide)


def _cards(numbers: list[int]) -> list[texas.Card]:
    return [texas.Card(numbers[i], numbers[i + 1]) for i in range(0, len(numbers), 2)]


def _action_line(decision: object) -> str:
    try:
        action, amount = cast(tuple[object, object], decision)
    except (TypeError, ValueError):
        return f"ACTION {decision}"
    name = action.value if isinstance(action, texas.ActionType) else str(action).upper()
    return f"ACTION RAISE {amount}" if name == "RAISE" else f"ACTION {name}"


def main() -> None:
    judge_in, judge_out = sys.stdin, sys.stdout
    sys.stdout = sys.stderr
    decide = _load(sys.argv[1])

    def ask(t: int) -> tuple[float, float]:
        judge_out.write(f"RATE {t}\n")
        judge_out.flush()
        reply = judge_in.readline().split()
        if len(reply) != 3 or reply[0] != "RATES":
            raise SystemExit(0)
        return float(reply[1]), float(reply[2])

    texas._Judge.ask = ask
    for line in judge_in:
        tag = line.split()[0] if line.strip() else ""
        if tag in ("-1", "SCORE"):
            return
        if tag != "STATE":
            continue
        alice = [int(x) for x in judge_in.readline().split()[1:]]
        board = [int(x) for x in judge_in.readline().split()[1:]]
        state = texas.State(alice=_cards(alice))
        for i, card in enumerate(_cards(board)):
            state.community[i] = card
        texas._Judge.current = texas.State(
            alice=[texas.Card(c.color, c.value) for c in state.alice],
            community=[texas.Card(c.color, c.value) for c in state.community],
        )
        decision = decide(state)
        texas._Judge.current = None
        judge_out.write(_action_line(decision) + "\n")
        judge_out.flush()


if __name__ == "__main__":
    main()

"""Exact value of a server strategy and the best-response policy against it (TwoCardDraw's "value").

The deck is infinite, so the server's cards are independent of yours and the belief over the server's
hand depends only on the public history. Backward induction therefore runs over the public tree once,
carrying for every public node an *unnormalised* weight vector over the server's 15 hands (prior times
the probability of the server's own choices so far). Your value at a node, for each of your 15 hands,
is ``sum_s weight[s] * payoff``; your best choice is the arg-max per hand. Every round-2 subtree
(7 first-round outcomes x 3 x 3 draws) is evaluated at once with numpy, so one evaluation takes well
under a millisecond or two.

``mistake`` is TwoCardDraw's generator variant: at each of your decisions every wrong choice is made with that
probability (1/1000 in TwoCardDraw's statement) and the best one with the rest.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from arena.engines.twocard.rules import COMPARE, DRAW_MATRICES, OUTCOMES, PRIOR, Outcome
from arena.engines.twocard.strategy import Strategy

NEAR_PERFECT_MISTAKE = 1e-3
_BETS = np.array([o.bets for o in OUTCOMES], dtype=float)


@dataclass(frozen=True)
class Policy:
    """Your choice in every situation, for each of your hands (last axis, :data:`HANDS` order):

    * ``open1[h]``: 0 check, 1 bet (``new_hand``);
    * ``respond1[bets, h]`` for bets 1..3: 0 fold, 1 call, 2 raise (``round1``);
    * ``draw[outcome, h]``: cards to draw (``draw``);
    * ``open2[outcome, you_drew, server_drew, h]``: 1 check, 2 bet (``round2`` with bets2 = 0);
    * ``respond2[outcome, you_drew, server_drew, bets2, h]`` for bets2 1..3 (``round2``).
    """

    open1: np.ndarray
    respond1: np.ndarray
    draw: np.ndarray
    open2: np.ndarray
    respond2: np.ndarray


@dataclass(frozen=True)
class BestResponse:
    """The value of a strategy (what the server wins per hand, negative when you win) and your best reply."""

    value: float
    policy: Policy


def _choose(
    options: list[np.ndarray], mistake: float, forced: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Value of a decision (best choice, each other one with probability ``mistake``) and the arg-max.

    With ``forced`` the choice is given instead (a fixed policy) and its value is returned.
    """
    stacked = np.stack(options)
    best = stacked.argmax(axis=0) if forced is None else np.broadcast_to(forced, stacked.shape[1:])
    top = np.take_along_axis(stacked, best[None], axis=0)[0]
    if mistake:
        return (1 - mistake * len(options)) * top + mistake * stacked.sum(axis=0), best
    return top, best


def _betting_round(
    weights: np.ndarray,
    probs: np.ndarray,
    base: np.ndarray,
    bet: float,
    terminal: Callable[[np.ndarray], np.ndarray],
    mistake: float,
    forced: tuple[np.ndarray, np.ndarray] | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One betting round for a batch of public nodes.

    ``weights`` (B, 15 server hands), ``probs`` (B, 15, 4 bets, 3), ``base`` (B,) what each side has in
    the pot already. ``terminal`` maps the weights at the 7 call-outcomes (B, 7, 15) to your values
    there (B, 7, 15 your hands). Returns your values (B, 15), the opening choice (B, 15) and the
    responses (B, 4, 15) (row 0 unused). ``forced`` (opening, responses) plays a fixed policy.
    """
    fixed_open, fixed = forced if forced is not None else (None, None)

    def given(k: int) -> np.ndarray | None:
        return None if fixed is None else fixed[:, k]

    fold, call, raise_ = (probs[..., a] for a in range(3))
    w0 = weights
    a1 = w0 * raise_[:, :, 0]
    a2 = w0 * raise_[:, :, 1]
    a3 = a1 * raise_[:, :, 2]
    ends = np.empty((*weights.shape[:1], 7, *weights.shape[1:]))
    ends[:, Outcome.NONE] = w0 * call[:, :, 0]
    ends[:, Outcome.YOU_1] = w0 * call[:, :, 1]
    ends[:, Outcome.SERVER_1] = a1
    ends[:, Outcome.YOU_2] = a2
    ends[:, Outcome.SERVER_2] = a1 * call[:, :, 2]
    ends[:, Outcome.YOU_3] = a2 * call[:, :, 3]
    ends[:, Outcome.SERVER_3] = a3
    tv = terminal(ends)

    def pot(k: int) -> np.ndarray:
        return (base + (k - 1) * bet)[:, None]

    def total(w: np.ndarray) -> np.ndarray:
        summed: np.ndarray = w.sum(axis=1, keepdims=True)
        return summed

    responses = np.zeros((*weights.shape[:1], 4, *weights.shape[1:]), dtype=np.int8)
    p3, responses[:, 3] = _choose(
        [np.broadcast_to(-pot(3) * total(a3), tv[:, 0].shape), tv[:, Outcome.SERVER_3]], mistake, given(3)
    )
    s2 = pot(2) * total(a1 * fold[:, :, 2]) + tv[:, Outcome.SERVER_2] + p3
    p1, responses[:, 1] = _choose(
        [np.broadcast_to(-pot(1) * total(a1), s2.shape), tv[:, Outcome.SERVER_1], s2], mistake, given(1)
    )
    s0 = tv[:, Outcome.NONE] + p1
    s3 = pot(3) * total(a2 * fold[:, :, 3]) + tv[:, Outcome.YOU_3]
    p2, responses[:, 2] = _choose(
        [np.broadcast_to(-pot(2) * total(a2), s3.shape), tv[:, Outcome.YOU_2], s3], mistake, given(2)
    )
    s1 = pot(1) * total(w0 * fold[:, :, 1]) + tv[:, Outcome.YOU_1] + p2
    value, opening = _choose([s0, s1], mistake, fixed_open)
    return value, opening, responses


def _solve(strategy: Strategy, mistake: float, fixed: Policy | None) -> tuple[float, Policy]:
    bet1, bet2 = float(strategy.bet1), float(strategy.bet2)
    round2 = strategy.round2.reshape(63, 15, 4, 3)
    base2 = np.repeat(1 + _BETS * bet1, 9)
    stash: dict[str, np.ndarray] = {}
    forced2 = None
    if fixed is not None:
        forced2 = (fixed.open2.reshape(63, 15) - 1, fixed.respond2.reshape(63, 4, 15))

    def showdown(ends: np.ndarray) -> np.ndarray:
        stake = base2[:, None] + _BETS[None, :] * bet2
        result: np.ndarray = stake[:, :, None] * (ends @ COMPARE.T)
        return result

    def draw_stage(ends: np.ndarray) -> np.ndarray:
        before = ends[0]  # (7 outcomes, 15 server hands before the draw)
        after = np.einsum("os,oisd,dst->oidt", before, strategy.draw, DRAW_MATRICES)
        values, stash["open2"], stash["respond2"] = _betting_round(
            after.reshape(63, 15), round2, base2, bet2, showdown, mistake, forced2
        )
        per_draw = values.reshape(7, 3, 3, 15).sum(axis=2)  # (outcome, you drew, your hand after)
        options = np.einsum("dhk,odk->doh", DRAW_MATRICES, per_draw)
        chosen, stash["draw"] = _choose(list(options), mistake, None if fixed is None else fixed.draw)
        return chosen[None]

    forced1 = None if fixed is None else (fixed.open1[None], fixed.respond1[None])
    values, open1, respond1 = _betting_round(
        PRIOR[None], strategy.round1[None], np.ones(1), bet1, draw_stage, mistake, forced1
    )
    policy = Policy(
        open1=open1[0],
        respond1=respond1[0],
        draw=np.asarray(stash["draw"]),
        open2=stash["open2"].reshape(7, 3, 3, 15) + 1,
        respond2=stash["respond2"].reshape(7, 3, 3, 4, 15),
    )
    return -float(PRIOR @ values[0]), policy


def best_response(strategy: Strategy, *, mistake: float = 0.0) -> BestResponse:
    """Exact value of ``strategy`` and the best response (``mistake`` > 0: the near-perfect variant)."""
    value, policy = _solve(strategy, mistake, None)
    return BestResponse(value, policy)


def strategy_value(strategy: Strategy, *, mistake: float = 0.0) -> float:
    """What ``strategy`` wins per hand against the (near-)perfect opponent."""
    return _solve(strategy, mistake, None)[0]


def policy_value(strategy: Strategy, policy: Policy) -> float:
    """What ``strategy`` wins per hand against the fixed ``policy`` (computed exactly, the same way)."""
    return _solve(strategy, 0.0, policy)[0]


def simple_policy(*, aggressive_hands: tuple[int, ...] = ()) -> Policy:
    """A fixed policy: bet/raise holding one of ``aggressive_hands`` (indexes), else check/call, never draw.

    ``aggressive_hands=(HAND_INDEX[(4, 4)],)`` is the statement's sample solution; ``()`` checks and calls.
    """
    strong = np.zeros(15, dtype=bool)
    strong[list(aggressive_hands)] = True
    respond1 = np.where(strong, 2, 1)[None].repeat(4, axis=0).astype(np.int8)
    respond1[3] = 1
    respond2 = np.broadcast_to(respond1, (7, 3, 3, 4, 15)).copy()
    return Policy(
        open1=strong.astype(np.int8),
        respond1=respond1,
        draw=np.zeros((7, 15), dtype=np.int8),
        open2=np.broadcast_to(np.where(strong, 2, 1), (7, 3, 3, 15)).astype(np.int8),
        respond2=respond2,
    )

"""ACPC match logs: one ``STATE`` line per hand, as the ACPC dealer writes them, rendered from events.

``STATE:<hand>:<betting>:<cards>:<payoffs>:<players>``, fields in position order (the dealt seats from the
dealer's left, the dealer last; heads-up the big blind first). Betting rounds are separated by ``/``;
``f`` folds, ``c`` checks or calls, ``r<n>`` raises to ``n``: the chips the player has in the pot over
the whole hand, blinds included (the ACPC no-limit convention). Cards: the hole cards of each position
separated by ``|`` (empty when hidden from the viewing team), then ``/`` and each round's board.

What the format cannot say, comment lines (``#``, which ACPC tools skip) add: the game (blinds, minimum
bet, antes of a heads-up match's dead pot) once, and before each hand its starting stacks in position
order (``# STACKS:<hand>:<s1>|<s2>...``), since an ACPC game fixes one stack for every hand while a
Code'em table carries stacks from deal to deal.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from arena import untrusted
from arena.cards import parse_cards
from arena.engines.headsup import START_STACK
from arena.engines.nlhe.events import ActionKind, Event
from arena.engines.nlhe.rules import TableRules
from arena.exports.deal_shape import Hand, compact, gather_hand
from arena.exports.logs import HeadsUpLog, TableLog
from arena.exports.phh import HEADSUP_ANTE


def _betting(hand: Hand) -> str:
    committed = {b.seat: b.amount for b in hand.blinds}  # chips in over the hand, blinds included
    rounds = []
    for play in hand.streets:
        text = []
        for act in play.actions:
            committed[act.seat] = committed.get(act.seat, 0) + act.added
            match act.action:
                case ActionKind.FOLD:
                    text.append("f")
                case ActionKind.CHECK | ActionKind.CALL:
                    text.append("c")
                case _:
                    text.append(f"r{committed[act.seat]}")
        rounds.append("".join(text))
    return "/".join(rounds)


def _player(team: str) -> str:
    """A team's name as one field of a ``STATE`` line: one line, no ``|`` or ``:`` (the separators)."""
    return untrusted.name(team).replace("|", "_").replace(":", "_")


def state_line(hand: Hand, *, teams: Sequence[str], viewer: int | None = None) -> str:
    """The ``STATE`` line of one deal (``viewer``: the seat whose view it is; others' cards unless shown)."""
    holes = "|".join(
        compact(hand.holes[seat]) if viewer in (None, seat) or hand.shown_down(seat) else ""
        for seat in hand.order
    )
    boards = "".join(f"/{compact(play.board)}" for play in hand.streets if play.board)
    payoffs = "|".join(str(hand.final[seat - 1] - hand.stacks[seat - 1]) for seat in hand.order)
    players = "|".join(_player(teams[seat - 1]) for seat in hand.order)
    return f"STATE:{hand.number}:{_betting(hand)}:{holes}{boards}:{payoffs}:{players}"


def game_comment(rules: TableRules, *, table: str) -> str:
    """The header comment naming the game the lines were played under."""
    return (
        f"# arena table {table}: no-limit hold'em, {rules.seats} seats, blinds {rules.small_blind}/"
        f"{rules.big_blind}, minimum bet {rules.big_blind} (turn and river {rules.late_street_min_bet}), "
        f"starting stack {rules.starting_stack}\n"
    )


def render_acpc_hands(
    deals: Iterable[Sequence[Event]],
    rules: TableRules,
    *,
    table: str,
    teams: Sequence[str],
    viewer: int | None,
) -> str:
    """The ACPC log of these deals: the game comment, then per deal its stacks comment and ``STATE`` line."""
    lines = [game_comment(rules, table=table)]
    for events in deals:
        hand = gather_hand(events)
        if viewer is not None and viewer not in hand.order:
            continue
        stacks = "|".join(str(hand.stacks[seat - 1]) for seat in hand.order)
        lines.append(f"# STACKS:{hand.number}:{stacks}\n")
        lines.append(state_line(hand, teams=teams, viewer=viewer) + "\n")
    return "".join(lines)


def render_acpc(log: TableLog, *, team: str | None = None) -> str:
    """A table's ACPC log: every card, or ``team``'s view (its deals, others' cards only when shown down)."""
    viewer = None if team is None else log.seat_of(team)
    return render_acpc_hands(log.deals, log.rules, table=log.name, teams=log.teams, viewer=viewer)


def headsup_state_line(record: dict[str, Any], *, player: str) -> str:
    """The ``STATE`` line of one heads-up hand: the player in position 0, Bob in position 1."""
    alice, bob, board = (parse_cards(record[key]) for key in ("alice", "bob", "board"))
    committed = 0
    rounds = []
    for played in record["rounds"]:
        move, _, amount = played["alice"].partition(" ")
        answer = played.get("bob", "")
        if committed == START_STACK:  # both all-in: nobody acts any more
            rounds.append("")
            continue
        if move == "FOLD":
            rounds.append("f")
            break
        if move == "CHECK":
            rounds.append("cc")
            continue
        committed += int(amount)
        rounds.append(f"r{committed}" + ("f" if answer == "FOLD" else "c"))
        if answer == "FOLD":
            break
    showdown = record.get("showdown") is not None
    dealt = (3, 4, 5)[: 3 if showdown else len(rounds) - 1]
    boards = "".join(f"/{compact(board[start:end])}" for start, end in zip((0, 3, 4), dealt, strict=False))
    delta = int(record["delta"])
    payoff = delta - HEADSUP_ANTE  # the player's net over its ante, as the antes model the dead pot
    cards = f"{compact(alice)}|{compact(bob)}{boards}"
    return f"STATE:{record['hand']}:{'/'.join(rounds)}:{cards}:{payoff}|{-payoff}:{player}|Bob"


def render_headsup_acpc(log: HeadsUpLog) -> str:
    """A heads-up match's ACPC log (every card)."""
    header = (
        f"# arena heads-up match {log.name}: no-limit hold'em, 2 players, no blinds, antes {HEADSUP_ANTE} "
        f"{HEADSUP_ANTE} (the dead pot of {2 * HEADSUP_ANTE}), minimum bet 1, "
        f"stack {START_STACK + HEADSUP_ANTE} {START_STACK + HEADSUP_ANTE}\n"
    )
    return header + "".join(headsup_state_line(r, player=log.player) + "\n" for r in log.hands)

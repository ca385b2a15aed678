"""PHH, the Poker Hand History standard (Kim, 2024; pokerkit's ``notation``), rendered from events.

One ``.phhs`` file per table: a TOML document with one table ``[N]`` per deal, ``N`` the deal number.
Each hand holds the required fields of variant ``NT`` (antes, blinds, minimum bet, starting stacks,
actions) and the optional ones arena knows (hand, table, seat count, seats, players, finishing stacks).
Players ``p1..pn`` are the dealt seats from the dealer's left, the dealer last (``arena.exports.deal_shape``).

Actions: ``d dh pK XxYy`` deals hole cards (``????`` when hidden from the viewing team), ``d db ...`` the
board, ``pK f`` / ``pK cc`` / ``pK cbr T`` fold, check-or-call and bet-or-raise to a street total ``T``,
and ``pK sm XxYy`` shows a hand at the showdown.

A heads-up match against Bob (``arena headsup``) is written the same way: its dead pot of 10 is two antes
of 5 over starting stacks of 105, so both players have the game's 100 behind after the antes.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from arena.cards import parse_cards
from arena.engines.headsup import START_STACK
from arena.engines.nlhe.events import ActionKind, Event
from arena.engines.nlhe.rules import TableRules
from arena.exports.deal_shape import Hand, compact, gather_hand
from arena.exports.logs import HeadsUpLog, TableLog

HIDDEN = "????"
HEADSUP_ANTE = 5
"""Each heads-up player's share of the game's dead pot of 10."""
HEADSUP_MIN_BET = 1


def _string(text: str) -> str:
    """A TOML string: literal (single quotes) when it can be, else a basic string with escapes."""
    if "'" in text or any(ord(c) < 32 or ord(c) == 127 for c in text):
        return json.dumps(text, ensure_ascii=False)
    return f"'{text}'"


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    return str(value)


def _document(number: int, fields: Sequence[tuple[str, Any]]) -> str:
    lines = [f"[{number}]"]
    for key, value in fields:
        if key == "actions":
            lines.append("actions = [")
            lines.extend(f"  {_string(action)}," for action in value)
            lines.append("]")
        else:
            lines.append(f"{key} = {_value(value)}")
    return "\n".join(lines) + "\n"


NOT_ASKED = "# not asked: every opponent is all-in"


class _Asked:
    """Who PHH's state machine (pokerkit's) still asks in a betting round, followed along arena's actions.

    A round asks every seat with chips that could still lose some (another seat still in has more in
    front); a bet or raise asks again every other seat with chips; a seat leaves the queue when it acts.
    arena asks nobody who owes nothing while every opponent is all-in (docs/protocol.md, "Who may raise"),
    so such a seat can be left in the queue when arena's round ends: PHH then needs its check.
    """

    def __init__(self, hand: Hand) -> None:
        self.order = hand.order
        self.behind = {seat: hand.stacks[seat - 1] for seat in hand.order}
        self.bets = dict.fromkeys(hand.order, 0)
        for blind in hand.blinds:
            self.behind[blind.seat] -= blind.amount
            self.bets[blind.seat] = blind.amount
        self.folded: set[int] = set()
        self.queue: list[int] = []

    def start_round(self, first: bool) -> None:
        if not first:
            self.bets = dict.fromkeys(self.order, 0)
        live = [seat for seat in self.order if seat not in self.folded]
        totals = sorted(self.bets[seat] + self.behind[seat] for seat in live)
        second = totals[-2] if len(totals) > 1 else 0
        self.queue = [seat for seat in live if self.behind[seat] and second > self.bets[seat]]
        if len(self.queue) == 1 and self.bets[self.queue[0]] >= max(self.bets.values()):
            self.queue = []

    def act(self, seat: int, action: ActionKind, added: int) -> None:
        self.behind[seat] -= added
        self.bets[seat] += added
        if action is ActionKind.FOLD:
            self.folded.add(seat)
        if action in (ActionKind.BET, ActionKind.RAISE):
            self.queue = [s for s in self.order if s != seat and s not in self.folded and self.behind[s]]
        elif seat in self.queue:
            self.queue.remove(seat)
        if len(self.order) - len(self.folded) < 2:
            self.queue = []


def hand_actions(hand: Hand, *, viewer: int | None = None) -> list[str]:
    """The PHH actions of a deal; ``viewer`` (a seat) sees only its own cards and those shown down.

    A seat arena does not ask because every opponent is all-in, but PHH's state machine does, gets the
    check it would play, marked with a comment (``pK cc # not asked: every opponent is all-in``).
    """
    player = {seat: f"p{i + 1}" for i, seat in enumerate(hand.order)}
    actions = [
        f"d dh {player[seat]} {compact(hand.holes[seat]) if viewer in (None, seat) else HIDDEN}"
        for seat in hand.order
    ]
    asked = _Asked(hand)
    for index, play in enumerate(hand.streets):
        if play.board:
            actions.append(f"d db {compact(play.board)}")
        asked.start_round(index == 0)
        for act in play.actions:
            match act.action:
                case ActionKind.FOLD:
                    actions.append(f"{player[act.seat]} f")
                case ActionKind.CHECK | ActionKind.CALL:
                    actions.append(f"{player[act.seat]} cc")
                case ActionKind.BET | ActionKind.RAISE:
                    actions.append(f"{player[act.seat]} cbr {act.street_total}")
            asked.act(act.seat, act.action, act.added)
        actions += [f"{player[seat]} cc {NOT_ASKED}" for seat in asked.queue]
        asked.queue = []
    for shown in sorted(hand.shown, key=lambda h: hand.position(h.seat)):
        if not shown.folded:
            actions.append(f"{player[shown.seat]} sm {compact(shown.cards)}")
    return actions


def hand_fields(
    hand: Hand, rules: TableRules, *, table: str, teams: Sequence[str], viewer: int | None = None
) -> list[tuple[str, Any]]:
    """The PHH fields of one deal, in the order the standard lists them."""
    blinds = {b.seat: (rules.small_blind if b.blind == "small" else rules.big_blind) for b in hand.blinds}
    if len(hand.order) == 2:  # pokerkit and PHH list heads-up blinds small first, posted the other way round
        blinds_list = [rules.small_blind, rules.big_blind]
    else:
        blinds_list = [blinds.get(seat, 0) for seat in hand.order]
    return [
        ("variant", "NT"),
        ("antes", [0] * len(hand.order)),
        ("blinds_or_straddles", blinds_list),
        ("min_bet", rules.big_blind),
        ("starting_stacks", [hand.stacks[seat - 1] for seat in hand.order]),
        ("actions", hand_actions(hand, viewer=viewer)),
        ("hand", hand.number),
        ("table", table),
        ("seat_count", hand.seats),
        ("seats", list(hand.order)),
        ("players", [teams[seat - 1] for seat in hand.order]),
        ("finishing_stacks", [hand.final[seat - 1] for seat in hand.order]),
    ]


def render_phh_hands(
    deals: Iterable[Sequence[Event]],
    rules: TableRules,
    *,
    table: str,
    teams: Sequence[str],
    viewer: int | None,
) -> str:
    """The ``.phhs`` text of these deals (``viewer``: the seat whose view it is; ``None``: every card)."""
    documents = []
    for events in deals:
        hand = gather_hand(events)
        fields = hand_fields(hand, rules, table=table, teams=teams, viewer=viewer)
        documents.append(_document(hand.number, fields))
    return "\n".join(documents)


def render_phh(log: TableLog, *, team: str | None = None) -> str:
    """A table's ``.phhs``: every card, or ``team``'s view (opponents' cards only when shown down)."""
    viewer = None if team is None else log.seat_of(team)
    return render_phh_hands(log.deals, log.rules, table=log.name, teams=log.teams, viewer=viewer)


def headsup_actions(record: dict[str, Any]) -> list[str]:
    """The PHH actions of one heads-up hand (``hands.jsonl`` record): the player is ``p1``, Bob ``p2``."""
    alice, bob, board = (parse_cards(record[key]) for key in ("alice", "bob", "board"))
    actions = [f"d dh p1 {compact(alice)}", f"d dh p2 {compact(bob)}"]
    dealt = (0, 3, 4, 5)
    stack = START_STACK
    for index, played in enumerate(record["rounds"]):
        if index:
            actions.append(f"d db {compact(board[dealt[index - 1] : dealt[index]])}")
        if stack == 0:  # both all-in: the judge still records the forced checks, nobody acts
            continue
        move, _, amount = played["alice"].partition(" ")
        if move == "FOLD":
            actions.append("p1 f")
            break
        actions.append("p1 cc" if move == "CHECK" else f"p1 cbr {amount}")
        answer = played.get("bob", "")
        if answer == "FOLD":
            actions.append("p2 f")
            break
        actions.append("p2 cc")
        if move == "RAISE":
            stack -= int(amount)
    if record.get("showdown") is not None:
        rounds = len(record["rounds"])
        actions.extend(f"d db {compact(board[dealt[i - 1] : dealt[i]])}" for i in range(rounds, 4))
        actions.extend((f"p1 sm {compact(alice)}", f"p2 sm {compact(bob)}"))
    return actions


def render_headsup_phh(log: HeadsUpLog) -> str:
    """A heads-up match's ``.phhs``: the player (``p1``) against Bob (``p2``), every card."""
    documents = []
    start = START_STACK + HEADSUP_ANTE
    for record in log.hands:
        delta = int(record["delta"])
        fields = [
            ("variant", "NT"),
            ("antes", [HEADSUP_ANTE, HEADSUP_ANTE]),
            ("blinds_or_straddles", [0, 0]),
            ("min_bet", HEADSUP_MIN_BET),
            ("starting_stacks", [start, start]),
            ("actions", headsup_actions(record)),
            ("hand", int(record["hand"])),
            ("table", log.name),
            ("seat_count", 2),
            ("seats", [1, 2]),
            ("players", [log.player, "Bob"]),
            ("finishing_stacks", [START_STACK + delta, 2 * start - START_STACK - delta]),
        ]
        documents.append(_document(int(record["hand"]), fields))
    return "\n".join(documents)

"""One hand of TwoCardDraw against the server, played step by step through TwoCardDraw's method calls.

Pure: the cards and the server's choices come from a ``random.Random`` given by the caller, and the
player is a function answering one method call at a time (``ask("round1", (1, 3, 2)) -> 2``). An
answer the rules cannot accept stops the hand with an :class:`IllegalAnswer`; the judge turns it into
a fault. TwoCardDraw's one tolerance applies: 0 from the first ``round2`` call of a hand means check.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from arena.engines.twocard.rules import CARD_VALUES, MAX_BETS, Outcome, after_draw, compare, hand_index
from arena.engines.twocard.strategy import Strategy

Ask = Callable[[str, tuple[int, ...]], int]
ACTION_LETTERS = "fcr"  # fold, call, raise; an opening check/bet is written k/b


class IllegalAnswer(Exception):
    """The player answered a method call with a number the rules do not allow there."""

    def __init__(self, method: str, args: tuple[int, ...], answer: int, allowed: str) -> None:
        super().__init__(f"{method} {' '.join(map(str, args))} answered {answer}; allowed: {allowed}")
        self.method = method
        self.arguments = args
        self.answer = answer


@dataclass
class HandRecord:
    """What happened in one hand, for the per-hand log."""

    number: int
    you: tuple[int, int]
    server: tuple[int, int]
    round1: str = ""
    you_drew: int = -1
    server_drew: int = -1
    you_after: tuple[int, int] | None = None
    server_after: tuple[int, int] | None = None
    round2: str = ""
    showdown: bool = False
    profit: int = 0
    calls: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form (one line of ``hands.jsonl``)."""
        return {
            "hand": self.number,
            "you": list(self.you),
            "server": list(self.server),
            "round1": self.round1,
            "you_drew": self.you_drew,
            "server_drew": self.server_drew,
            "you_after": list(self.you_after) if self.you_after else None,
            "server_after": list(self.server_after) if self.server_after else None,
            "round2": self.round2,
            "showdown": self.showdown,
            "profit": self.profit,
        }


def _choice(rng: random.Random, probs: Sequence[float]) -> int:
    """Sample 0, 1 or 2 from three probabilities (the last one takes any rounding remainder)."""
    p0, p1 = float(probs[0]), float(probs[1])
    u = rng.random()
    return 0 if u < p0 else 1 if u < p0 + p1 else 2


def _sorted(a: int, b: int) -> tuple[int, int]:
    return (min(a, b), max(a, b))


def play_hand(number: int, strategy: Strategy, winnings: int, rng: random.Random, ask: Ask) -> HandRecord:
    """Play hand ``number``; ``winnings`` is your profit before it (TwoCardDraw's ``new_hand`` argument)."""
    cards = [rng.randrange(CARD_VALUES) for _ in range(8)]
    you, server = _sorted(cards[0], cards[1]), _sorted(cards[2], cards[3])
    record = HandRecord(number, you, server)

    def call(method: str, *args: int) -> int:
        record.calls.append(f"{method} {' '.join(map(str, args))}")
        return ask(method, args)

    def legal_call(method: str, args: tuple[int, ...], choices: int, meaning: str) -> int:
        answer = call(method, *args)
        if not 0 <= answer < choices:
            raise IllegalAnswer(method, args, answer, meaning)
        return answer

    def respond(method: str, args: tuple[int, ...], bets: int) -> int:
        if bets < MAX_BETS:
            return legal_call(method, args, 3, "0 fold, 1 call, 2 raise")
        return legal_call(method, args, 2, "0 fold, 1 call (3 bets is the limit)")

    def betting(
        opening: int, server_probs: Callable[[int], Sequence[float]], player: Callable[[int], int]
    ) -> tuple[str, int, bool, str]:
        """Returns (folded_by, bets, server_first, letters); folded_by is 'you', 'server' or ''."""
        bets = opening
        letters = ["b" if opening else "k"]
        server_turn = True
        while True:
            action = _choice(rng, server_probs(bets)) if server_turn else player(bets)
            letters.append(ACTION_LETTERS[action])
            if action == 0:
                return ("server" if server_turn else "you"), bets, opening == 0, " ".join(letters)
            if action == 1:
                return "", bets, opening == 0 and bets > 0, " ".join(letters)
            bets += 1
            server_turn = not server_turn

    opening = legal_call("new_hand", (*you, winnings), 2, "0 check, 1 bet")
    hand = hand_index(*server)
    folded, bets1, server_first, record.round1 = betting(
        opening, lambda bets: strategy.round1[hand, bets], lambda bets: respond("round1", (*you, bets), bets)
    )
    stake = 1
    if folded:
        stake += (bets1 - 1) * strategy.bet1
        record.profit = stake if folded == "server" else -stake
        return record
    outcome = Outcome.of(bets1, server_first)
    stake += bets1 * strategy.bet1
    record.you_drew = legal_call("draw", (*you, bets1), 3, "0, 1 or 2 cards")
    record.server_drew = _choice(rng, strategy.draw[outcome, record.you_drew, hand])
    you = after_draw(you, record.you_drew, tuple(cards[4:6]))
    server = after_draw(server, record.server_drew, tuple(cards[6:8]))
    record.you_after, record.server_after = you, server
    hand = hand_index(*server)
    situation = strategy.round2[outcome, record.you_drew, record.server_drew, hand]
    opening2 = legal_call("round2", (*you, bets1, 0, record.server_drew), 3, "0 or 1 check, 2 bet")
    opening2 = max(opening2, 1) - 1  # TwoCardDraw's statement: 0 from the first round2 call means check
    folded, bets2, _, record.round2 = betting(
        opening2,
        lambda bets: situation[bets],
        lambda bets: respond("round2", (*you, bets1, bets, record.server_drew), bets),
    )
    if folded:
        stake += (bets2 - 1) * strategy.bet2
        record.profit = stake if folded == "server" else -stake
        return record
    stake += bets2 * strategy.bet2
    record.showdown = True
    record.profit = compare(you, server) * stake
    call("showdown", *you, *server)
    return record

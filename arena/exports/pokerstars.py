"""PokerStars hand-history text, as trackers (PokerTracker, Hold'em Manager, pokerkit) import it.

One file per table and team: the hands as that team saw them (its own hole cards on a ``Dealt to`` line,
the others' only when shown down). Hands are separated by two blank lines, as PokerStars writes them.

The date is when the deal started, from the table's ``times.jsonl``, in UTC and in ET as PokerStars writes
it (``2026/11/27 22:11:03 UTC [2026/11/27 17:11:03 ET]``); a table recorded without times gets a fixed date
(2000/01/01, one minute per deal, so trackers keep the order). The hand number is
``<table number><deal as six digits>``
(table003, deal 17 is ``#3000017``; the final, numbered 0, is ``#17``), unique across a tournament's tables
as trackers require.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from arena import untrusted
from arena.cards import card_text
from arena.engines.nlhe.events import ActionKind, ActionTaken, Event, HandShown, Street
from arena.engines.nlhe.rules import TableRules
from arena.evaluator import HandCategory, category
from arena.exports.deal_shape import Hand, gather_hand
from arena.exports.logs import TableLog

EPOCH = datetime(2000, 1, 1)
try:
    EASTERN: ZoneInfo | None = ZoneInfo("America/New_York")
except ZoneInfoNotFoundError:  # a system without time-zone data: UTC only
    EASTERN = None
DEAL_DIGITS = 1_000_000
_FOLDED_WHEN = {
    Street.PRE_FLOP: "before Flop",
    Street.FLOP: "on the Flop",
    Street.TURN: "on the Turn",
    Street.RIVER: "on the River",
}
_HEADINGS = {Street.FLOP: "FLOP", Street.TURN: "TURN", Street.RIVER: "RIVER"}
_NAMES = ("Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen", "King",
          "Ace")  # fmt: skip
_PLURALS = ("Deuces", "Threes", "Fours", "Fives", "Sixes", "Sevens", "Eights", "Nines", "Tens", "Jacks",
            "Queens", "Kings", "Aces")  # fmt: skip


def _cards(cards: Iterable[int]) -> str:
    return "[" + " ".join(card_text(c) for c in cards) + "]"


def table_number(name: str) -> int:
    """The number in a table's name (``table003`` is 3); 0 for a name without one (``final``)."""
    digits = name[len(name.rstrip("0123456789")) :]
    return int(digits) if digits else 0


def hand_id(table_number: int, deal: int) -> int:
    """The hand number trackers see: the table's number, then the deal in six digits."""
    return table_number * DEAL_DIGITS + deal


def _action_line(name: str, act: ActionTaken, current: int) -> str:
    all_in = " and is all-in" if act.all_in else ""
    match act.action:
        case ActionKind.FOLD:
            return f"{name}: folds"
        case ActionKind.CHECK:
            return f"{name}: checks"
        case ActionKind.CALL:
            return f"{name}: calls {act.added}{all_in}"
        case ActionKind.BET:
            return f"{name}: bets {act.added}{all_in}"
        case _:
            return f"{name}: raises {act.street_total - current} to {act.street_total}{all_in}"


def _pot_name(index: int, pots: int) -> str:
    if pots == 1:
        return "pot"
    return "main pot" if index == 0 else f"side pot-{index}" if pots > 2 else "side pot"


def render_hand(
    hand: Hand,
    rules: TableRules,
    *,
    table: str,
    table_number: int,
    teams: Sequence[str],
    viewer: int,
    started: datetime | None = None,
) -> str:
    """One hand as ``viewer`` (a seat) saw it; ``started`` is when the deal started (None: not recorded)."""
    name = {seat: untrusted.name(teams[seat - 1]) for seat in hand.order}  # one line each, whatever it holds
    lines = [
        f"PokerStars Hand #{hand_id(table_number, hand.number)}: Hold'em No Limit "
        f"({rules.small_blind}/{rules.big_blind}) - {_when(hand.number, started)}",
        f"Table '{table}' {hand.seats}-max Seat #{hand.dealer} is the button",
    ]
    lines += [f"Seat {seat}: {name[seat]} ({hand.stacks[seat - 1]} in chips)" for seat in sorted(hand.order)]
    roles: dict[int, str] = {hand.dealer: "button"}
    current = 0
    for blind in hand.blinds:
        roles.setdefault(blind.seat, f"{blind.blind} blind")
        all_in = " and is all-in" if blind.all_in else ""
        lines.append(f"{name[blind.seat]}: posts {blind.blind} blind {blind.amount}{all_in}")
        current = max(current, blind.amount)
    lines.append("*** HOLE CARDS ***")
    lines.append(f"Dealt to {name[viewer]} {_cards(hand.holes[viewer])}")
    folded: dict[int, Street] = {}
    bet_before = {blind.seat for blind in hand.blinds}  # seats with chips in: no "(didn't bet)"
    seen: list[int] = []
    for play in hand.streets:
        if play.street is not Street.PRE_FLOP:
            current = 0
            heading = f"*** {_HEADINGS[play.street]} *** "
            lines.append(heading + (f"{_cards(seen)} " if seen else "") + _cards(play.board))
        seen.extend(play.board)
        for act in play.actions:
            lines.append(_action_line(name[act.seat], act, current))
            current = max(current, act.street_total)
            if act.action is ActionKind.FOLD:
                folded[act.seat] = play.street
            elif act.added:
                bet_before.add(act.seat)
        for back in play.returned:
            lines.append(f"Uncalled bet ({back.amount}) returned to {name[back.seat]}")
    shown = {h.seat: h for h in hand.shown if not h.folded}
    if hand.showdown:
        lines.append("*** SHOW DOWN ***")
        for seat in sorted(shown, key=hand.position):
            words = describe(shown[seat].strength)
            lines.append(f"{name[seat]}: shows {_cards(shown[seat].cards)} ({words})")
    won: dict[int, int] = {}
    for pot in hand.pots:
        for seat, share in zip(pot.winners, pot.shares, strict=True):
            won[seat] = won.get(seat, 0) + share
            lines.append(f"{name[seat]} collected {share} from {_pot_name(pot.pot, len(hand.pots))}")
    if not hand.showdown:
        winner = hand.pots[0].winners[0]
        lines.append(f"{name[winner]}: doesn't show hand")
    lines.append("*** SUMMARY ***")
    total = sum(p.amount for p in hand.pots)
    if len(hand.pots) > 1:
        parts = [f"Main pot {hand.pots[0].amount}."]
        parts += [f"Side pot{'' if len(hand.pots) == 2 else f'-{p.pot}'} {p.amount}." for p in hand.pots[1:]]
        lines.append(f"Total pot {total} {' '.join(parts)} | Rake 0")
    else:
        lines.append(f"Total pot {total} | Rake 0")
    if hand.board:
        lines.append(f"Board {_cards(hand.board)}")
    for seat in sorted(hand.order):
        role = f" ({roles[seat]})" if seat in roles else ""
        outcome = _summary(seat, folded, bet_before, shown, won)
        lines.append(f"Seat {seat}: {name[seat]}{role} {outcome}")
    return "\n".join(lines) + "\n"


def describe(strength: int) -> str:
    """PokerStars' words for a hand (``arena.evaluator`` strength: category, then ranks, four bits each)."""
    first, second = (strength >> 16) & 15, (strength >> 12) & 15
    match category(strength):
        case HandCategory.HIGH_CARD:
            return f"high card {_NAMES[first]}"
        case HandCategory.ONE_PAIR:
            return f"a pair of {_PLURALS[first]}"
        case HandCategory.TWO_PAIR:
            return f"two pair, {_PLURALS[first]} and {_PLURALS[second]}"
        case HandCategory.THREE_OF_A_KIND:
            return f"three of a kind, {_PLURALS[first]}"
        case HandCategory.STRAIGHT:
            return f"a straight, {_NAMES[first - 4]} to {_NAMES[first]}"
        case HandCategory.FLUSH:
            return f"a flush, {_NAMES[first]} high"
        case HandCategory.FULL_HOUSE:
            return f"a full house, {_PLURALS[first]} full of {_PLURALS[second]}"
        case HandCategory.FOUR_OF_A_KIND:
            return f"four of a kind, {_PLURALS[first]}"
        case _:
            if first == 12:
                return "a Royal Flush"
            return f"a straight flush, {_NAMES[first - 4]} to {_NAMES[first]}"


def _summary(
    seat: int,
    folded: dict[int, Street],
    bet_before: set[int],
    shown: dict[int, HandShown],
    won: dict[int, int],
) -> str:
    """A seat's line of the summary: when it folded, what it showed and won, or what it collected."""
    if seat in folded:
        street = folded[seat]
        quiet = " (didn't bet)" if street is Street.PRE_FLOP and seat not in bet_before else ""
        return f"folded {_FOLDED_WHEN[street]}{quiet}"
    if seat in shown:
        cards, words = _cards(shown[seat].cards), describe(shown[seat].strength)
        if seat in won:
            return f"showed {cards} and won ({won[seat]}) with {words}"
        return f"showed {cards} and lost with {words}"
    return f"collected ({won.get(seat, 0)})"


def _when(number: int, started: datetime | None) -> str:
    """The hand's date as PokerStars writes it: UTC then ET, or the fixed date when none was recorded."""
    stamp = "%Y/%m/%d %H:%M:%S"
    if started is None:
        return f"{(EPOCH + timedelta(minutes=number)).strftime(stamp)} ET"
    utc = f"{started.astimezone(UTC).strftime(stamp)} UTC"
    return utc if EASTERN is None else f"{utc} [{started.astimezone(EASTERN).strftime(stamp)} ET]"


def render_pokerstars_hands(
    deals: Iterable[Sequence[Event]],
    rules: TableRules,
    *,
    table: str,
    table_number: int,
    teams: Sequence[str],
    viewer: int,
    started: Mapping[int, datetime] | None = None,
) -> str:
    """The PokerStars text of these deals as ``viewer`` (a seat) saw them; deals it sat out are left out.
    ``started`` gives when each deal (by number) started, where it was recorded."""
    hands = []
    for events in deals:
        hand = gather_hand(events)
        if viewer in hand.order:
            when = (started or {}).get(hand.number)
            hands.append(
                render_hand(
                    hand,
                    rules,
                    table=table,
                    table_number=table_number,
                    teams=teams,
                    viewer=viewer,
                    started=when,
                )
            )
    return "\n\n".join(hands)


def render_pokerstars(log: TableLog, *, team: str) -> str:
    """A table's hands as ``team`` saw them."""
    viewer = log.seat_of(team)
    return render_pokerstars_hands(
        log.deals,
        log.rules,
        table=log.name,
        table_number=table_number(log.name),
        teams=log.teams,
        viewer=viewer,
        started=log.started,
    )

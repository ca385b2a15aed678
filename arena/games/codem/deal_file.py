"""Code'em's ``deal.txt``: rendered from a deal's events, and parsed back (paired codec).

The layout and each reading of the Code'em statement's irregular examples are documented in
``docs/protocol.md``. The parser is lenient on white space so it reads both of the statement's own
examples as well as our files.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from arena.cards import from_codem, to_codem
from arena.engines.nlhe.events import (
    ActionKind,
    ActionTaken,
    BlindPosted,
    DealEnded,
    DealStarted,
    Event,
    HandShown,
    PotAwarded,
    StreetEnded,
    StreetStarted,
    UncalledBetReturned,
)
from arena.engines.nlhe.events import Street as Street
from arena.errors import FormatError

COLUMN = 15
BETTING_STREETS = (Street.PRE_FLOP, Street.FLOP, Street.TURN, Street.RIVER)
_WORD = {
    ActionKind.FOLD: "Fold",
    ActionKind.CHECK: "Call",
    ActionKind.CALL: "Call",
    ActionKind.BET: "Rise",
    ActionKind.RAISE: "Rise",
}


def _grid(cells: Iterable[object]) -> str:
    return "".join(str(c).ljust(COLUMN) for c in cells).rstrip()


def _key_line(label: str, value: object) -> str:
    return f"{label.ljust(COLUMN)}{value}"


@dataclass
class _StreetBlock:
    street: Street
    board: tuple[int, ...]
    entries: list[tuple[int, str]] = field(default_factory=list)
    ended: bool = False
    text: str | None = None  # the block's lines, kept once it has ended (they cannot change then)


def _rows(entries: Sequence[tuple[int, str]], seats: int) -> list[list[str]]:
    """Orbit rows: a new row starts when the action comes back to a seat already in the current one."""
    rows: list[dict[int, str]] = []
    for seat, text in entries:
        if not rows or seat in rows[-1]:
            rows.append({})
        rows[-1][seat] = text
    return [[row.get(s, "-") for s in range(1, seats + 1)] for row in rows]


class DealText:
    """The ``deal.txt`` of one deal, brought up to date with each new event.

    :meth:`render` reads only the events it has not seen yet and re-renders only the street being
    played (ended streets are kept as text), so a decision costs the same at any point of the deal.
    The text is byte for byte that of rendering all the events at once (:func:`render_deal_file`).
    """

    def __init__(self, *, seats: int) -> None:
        self.seats = seats
        self._seen = 0
        self._dealer = 0
        self._pot = 0
        self._blocks: list[_StreetBlock] = []
        self._blinds: list[tuple[int, str]] = []
        self._shown: list[HandShown] = []
        self._awards: list[PotAwarded] = []
        self._over = False
        self._seat_line = _grid(range(1, seats + 1))

    def render(self, events: Sequence[Event]) -> str:
        """The file as far as ``events`` go; ``events`` extends those of the previous call."""
        for event in events[self._seen :]:
            self._take(event)
        self._seen = len(events)
        blocks = self._blocks
        stage = Street.SHOWDOWN if self._over else (blocks[-1].street if blocks else Street.PRE_FLOP)
        parts = [
            f"{_key_line('Dealer', self._dealer)}\n{_key_line('Stage', stage.value)}\n"
            f"{_key_line('Main_Pot', self._pot)}\n"
        ]
        parts.extend(self._block_text(block) for block in blocks)
        if self._over:
            lines = ["", Street.SHOWDOWN.value]
            for hand in sorted(self._shown, key=lambda h: h.seat):
                lines.append(_grid([hand.seat, *(to_codem(c) for c in hand.cards)]))
            for award in self._awards:
                lines.append(_grid(["Win", *award.winners]))
            parts.append("\n".join(lines) + "\n")
        return "".join(parts)

    def _take(self, event: Event) -> None:
        match event:
            case DealStarted(dealer=d):
                self._dealer = d
            case StreetStarted(street=street, board=board):
                entries = self._blinds if street is Street.PRE_FLOP else []
                self._blocks.append(_StreetBlock(street, board, entries))
            case BlindPosted(seat=seat, amount=amount):
                self._pot += amount
                self._blinds.append((seat, f"Rise {amount}"))
            case ActionTaken(seat=seat, action=action, added=added, street_total=total):
                self._pot += added
                self._blocks[-1].entries.append((seat, f"{_WORD[action]} {total}"))
            case UncalledBetReturned(amount=amount):
                self._pot -= amount
            case StreetEnded():
                self._blocks[-1].ended = True
            case HandShown():
                self._shown.append(event)
            case PotAwarded():
                self._awards.append(event)
            case DealEnded():
                self._over = True

    def _block_text(self, block: _StreetBlock) -> str:
        """The block's lines, each ending in a newline, after the empty line that opens it."""
        if block.text is not None:
            return block.text
        lines = ["", block.street.value]
        if block.street is not Street.PRE_FLOP:
            lines.append(_grid(to_codem(c) for c in block.board))
        lines.append(self._seat_line)
        lines.extend(_grid(row) for row in _rows(block.entries, self.seats))
        if block.ended:
            lines.append("End")
        text = "\n".join(lines) + "\n"
        if block.ended:
            block.text = text
        return text


def render_deal_file(events: Sequence[Event], *, seats: int) -> str:
    """The ``deal.txt`` of a deal as far as ``events`` go (the final file once the deal has ended)."""
    return DealText(seats=seats).render(events)


@dataclass(frozen=True)
class Cell:
    """One entry of a betting row: ``word`` is Call, Rise or Fold; ``amount`` the seat's round total."""

    word: str
    amount: int


@dataclass
class ParsedStreet:
    """One betting round of a parsed ``deal.txt``."""

    street: Street
    board: list[int]
    rows: list[list[Cell | None]]
    ended: bool


@dataclass
class ParsedDeal:
    """A parsed ``deal.txt``: cards are indices 0..51, seats 1..N."""

    dealer: int
    stage: Street
    main_pot: int
    streets: list[ParsedStreet]
    shown: dict[int, tuple[int, int]]
    winners: list[list[int]]

    @property
    def board(self) -> list[int]:
        """All community cards dealt so far."""
        return [c for s in self.streets for c in s.board]


_STREET_NAMES = {s.value: s for s in Street}


def _ints(tokens: Sequence[str], where: str) -> list[int]:
    try:
        return [int(t) for t in tokens]
    except ValueError:
        raise FormatError(f"{where}: expected numbers, found {' '.join(tokens)!r}") from None


def _parse_row(tokens: list[str], where: str) -> list[Cell | None]:
    cells: list[Cell | None] = []
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token == "-":
            cells.append(None)
            i += 1
        elif token in ("Call", "Rise", "Fold") and i + 1 < len(tokens):
            cells.append(Cell(token, _ints([tokens[i + 1]], where)[0]))
            i += 2
        else:
            raise FormatError(f"{where}: unexpected {token!r} in a betting row")
    return cells


def parse_deal_file(text: str) -> ParsedDeal:
    """Parse a ``deal.txt`` (ours, or either of the statement's examples); FormatError names the line."""
    lines = [(n, line.split()) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    header: dict[str, str] = {}
    streets: list[ParsedStreet] = []
    shown: dict[int, tuple[int, int]] = {}
    winners: list[list[int]] = []
    current: ParsedStreet | None = None
    in_showdown = False
    expect_board = False
    for number, tokens in lines:
        where = f"deal.txt line {number}"
        first = tokens[0]
        if first in ("Dealer", "Stage", "Main_Pot") and len(tokens) >= 2 and not streets:
            header[first] = tokens[1]
        elif first in _STREET_NAMES and len(tokens) == 1:
            street = _STREET_NAMES[first]
            if street is Street.SHOWDOWN:
                in_showdown, current = True, None
            else:
                current = ParsedStreet(street, [], [], False)
                streets.append(current)
                expect_board = street is not Street.PRE_FLOP
        elif in_showdown:
            if first == "Win":
                winners.append(_ints(tokens[1:], where))
            else:
                seat, *cards = _ints(tokens, where)
                if len(cards) != 2:
                    raise FormatError(f"{where}: a shown hand needs a seat and two cards")
                shown[seat] = (from_codem(cards[0]), from_codem(cards[1]))
        elif current is None:
            raise FormatError(f"{where}: {' '.join(tokens)!r} is outside any stage")
        elif first == "End":
            current.ended = True
        elif expect_board:
            current.board = [from_codem(c) for c in _ints(tokens, where)]
            expect_board = False
        elif all(t.isdigit() for t in tokens):
            continue  # the seat-number header
        else:
            current.rows.append(_parse_row(tokens, where))
    try:
        return ParsedDeal(
            dealer=int(header["Dealer"]),
            stage=_STREET_NAMES[header["Stage"]],
            main_pot=int(header["Main_Pot"]),
            streets=streets,
            shown=shown,
            winners=winners,
        )
    except (KeyError, ValueError) as error:
        raise FormatError(f"deal.txt: missing or bad header line ({error})") from None

"""Code'em's ``deal.txt``: rendered from a deal's events, and parsed back (paired codec).

The layout and each reading of the Code'em statement's irregular examples are documented in
``docs/protocol.md``. The parser is lenient on white space so it reads both of the statement's own
examples as well as our files.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

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
_CELL = f"{{:<{COLUMN}}}"  # a cell: its text left-aligned in COLUMN characters
BETTING_STREETS = (Street.PRE_FLOP, Street.FLOP, Street.TURN, Street.RIVER)
_WORD = {
    ActionKind.FOLD: "Fold",
    ActionKind.CHECK: "Call",
    ActionKind.CALL: "Call",
    ActionKind.BET: "Rise",
    ActionKind.RAISE: "Rise",
}


def _grid(cells: Iterable[object]) -> str:
    values = list(cells)
    return (_CELL * len(values)).format(*values).rstrip()


def _key_line(label: str, value: object) -> str:
    return f"{label.ljust(COLUMN)}{value}"


def _row_line(row: dict[int, str], seats: int) -> str:
    """One orbit row's line (with its newline): each seat's entry, ``-`` where it did not act."""
    return _grid([row.get(s, "-") for s in range(1, seats + 1)]) + "\n"


class _StreetBlock:
    """One betting round's lines, kept as text: its head, the orbit rows already closed, the open row.

    An orbit row closes when the action comes back to a seat already in it; closed rows never change, so
    a decision renders only the open row.
    """

    def __init__(self, street: Street, board: tuple[int, ...], seat_line: str, seats: int) -> None:
        self.street = street
        self.seats = seats
        board_line = "" if street is Street.PRE_FLOP else _grid(to_codem(c) for c in board) + "\n"
        self.closed = f"\n{street.value}\n{board_line}{seat_line}\n"
        self.row: dict[int, str] = {}

    def add(self, seat: int, entry: str) -> None:
        """A seat's entry, in a new row when the seat already has one in the open row."""
        if seat in self.row:
            self.closed += _row_line(self.row, self.seats)
            self.row = {}
        self.row[seat] = entry

    def end(self) -> None:
        """The round is over: its text is final."""
        if self.row:
            self.closed += _row_line(self.row, self.seats)
            self.row = {}
        self.closed += "End\n"

    @property
    def text(self) -> str:
        """The block's lines, each ending in a newline, after the empty line that opens it."""
        return self.closed + _row_line(self.row, self.seats) if self.row else self.closed


_STAGE_LINES = {street: f"{_key_line('Stage', street.value)}\n" for street in Street}


class DealText:
    """The ``deal.txt`` of one deal, brought up to date with each new event.

    :meth:`render` reads only the events it has not seen yet and re-renders only the open orbit row of the
    street being played (ended streets and closed rows are kept as text), so a decision costs the same at
    any point of the deal. The text is byte for byte that of rendering all the events at once
    (:func:`render_deal_file`).
    """

    def __init__(self, *, seats: int) -> None:
        self.seats = seats
        self._seen = 0
        self._dealer_line = f"{_key_line('Dealer', 0)}\n"
        self._pot = 0
        self._block: _StreetBlock | None = None  # the street being played (or the last one)
        self._done = ""  # the text of the streets before it, which cannot change any more
        self._blinds: list[tuple[int, str]] = []  # blinds posted before the pre-flop block opened
        self._shown: list[HandShown] = []
        self._awards: list[PotAwarded] = []
        self._over = False
        self._seat_line = _grid(range(1, seats + 1))

    def render(self, events: Sequence[Event]) -> str:
        """The file as far as ``events`` go; ``events`` extends those of the previous call."""
        if len(events) > self._seen:
            for event in events[self._seen :]:
                self._take(event)
            self._seen = len(events)
        block = self._block
        stage = Street.SHOWDOWN if self._over else (block.street if block is not None else Street.PRE_FLOP)
        text = f"{self._dealer_line}{_STAGE_LINES[stage]}{_key_line('Main_Pot', self._pot)}\n{self._done}"
        if block is not None:
            text += block.text
        if self._over:
            lines = ["", Street.SHOWDOWN.value]
            for hand in sorted(self._shown, key=lambda h: h.seat):
                lines.append(_grid([hand.seat, *(to_codem(c) for c in hand.cards)]))
            for award in self._awards:
                lines.append(_grid(["Win", *award.winners]))
            text += "\n".join(lines) + "\n"
        return text

    def _take(self, event: Event) -> None:
        match event:
            case DealStarted(dealer=d):
                self._dealer_line = f"{_key_line('Dealer', d)}\n"
            case StreetStarted(street=street, board=board):
                if self._block is not None:
                    self._done += self._block.text
                self._block = _StreetBlock(street, board, self._seat_line, self.seats)
                if street is Street.PRE_FLOP:
                    for seat, entry in self._blinds:
                        self._block.add(seat, entry)
                    self._blinds = []
            case BlindPosted(seat=seat, amount=amount):
                self._pot += amount
                if self._block is not None and self._block.street is Street.PRE_FLOP:
                    self._block.add(seat, f"Rise {amount}")
                else:
                    self._blinds.append((seat, f"Rise {amount}"))
            case ActionTaken(seat=seat, action=action, added=added, street_total=total):
                self._pot += added
                assert self._block is not None
                self._block.add(seat, f"{_WORD[action]} {total}")
            case UncalledBetReturned(amount=amount):
                self._pot -= amount
            case StreetEnded():
                assert self._block is not None
                self._block.end()
            case HandShown():
                self._shown.append(event)
            case PotAwarded():
                self._awards.append(event)
            case DealEnded():
                self._over = True


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

"""Learner: a Code'em Poker team program that learns a "result table" from its own play (seed 002).

For every situation (hand class x stage x facing a bet or not) and every choice (fold, call, raise) the
table in learner/table.txt holds how many times the choice was made and how many chips it won in total.
At each decision the program takes the choice with the best average (untried choices first), except for
1% of decisions where it explores a random choice. Each decision is remembered in learner/pending.txt
with the stack it was made from; once the deal's result is known, the chips won since that decision are
added to the table:
  * at the Show_Down run, when this seat won nothing (its final stack is then exact: money before the
    deal minus what it put in, less any uncalled chips returned);
  * otherwise at the first run of the next deal, from that deal's money in deals_money.txt (deals won
    by everyone else folding have no Show_Down run).
Randomness is seeded from the input files, so the same files give the same answer. Python 3, stdlib only.
"""

import hashlib
import os
import random

HELP_DIR = "learner"
TABLE = os.path.join(HELP_DIR, "table.txt")
PENDING = os.path.join(HELP_DIR, "pending.txt")
EXPLORE = 0.01
BIG_BLIND = 10
ROUNDS = ("Pre_Flop", "Flop", "Fourth_Street", "Fifth_Street")
BOARD_CARDS = {"Pre_Flop": 0, "Flop": 3, "Fourth_Street": 1, "Fifth_Street": 1}
ACTIONS = ("Call", "Rise", "Fold")
CATEGORY = ("high", "pair", "twopair", "trips", "straight", "flush", "fullhouse", "quads", "strflush")


def read_text(path: str) -> str:
    try:
        with open(path) as handle:
            return handle.read()
    except OSError:
        return ""


def to_int(word: str, default: int = 0) -> int:
    try:
        return int(word)
    except ValueError:
        return default


class Deal:
    """What deal.txt says, read by white space so that irregular layouts parse too."""

    def __init__(self, text: str) -> None:
        self.dealer = 0
        self.stage = ""
        self.pot = 0
        self.board: list[int] = []
        self.rounds: dict[str, list[tuple[int, str, int]]] = {}  # round -> (seat, action, total) in order
        self.folded: set[int] = set()
        self.shown: dict[int, tuple[int, int]] = {}
        self.winners: set[int] = set()
        current, board_left = "", 0
        header: list[int] = []
        for line in text.splitlines():
            words = line.split()
            if not words:
                continue
            head = words[0]
            if head in ("Dealer", "Stage", "Main_Pot") and len(words) >= 2:
                if head == "Dealer":
                    self.dealer = to_int(words[1])
                elif head == "Stage":
                    self.stage = words[1]
                else:
                    self.pot = to_int(words[1])
            elif len(words) == 1 and (head in ROUNDS or head == "Show_Down"):
                current, header, board_left = head, [], BOARD_CARDS.get(head, 0)
                self.rounds.setdefault(head, [])
            elif head == "Win":
                self.winners.update(to_int(w) for w in words[1:])
            elif all(w.lstrip("-").isdigit() for w in words):
                numbers = [int(w) for w in words]
                if current == "Show_Down" and len(numbers) >= 3:
                    self.shown[numbers[0]] = (numbers[1], numbers[2])
                elif current in ROUNDS and board_left > 0:
                    self.board.extend(numbers[:board_left])
                    board_left = 0
                elif current in ROUNDS and not header:
                    header = numbers
            elif current in ROUNDS and head != "End":
                self._read_row(current, header, words)

    def _read_row(self, current: str, header: list[int], words: list[str]) -> None:
        column, i = 0, 0
        while i < len(words):
            if words[i] == "-":
                column += 1
            elif words[i] in ACTIONS and i + 1 < len(words):
                seat = header[column] if column < len(header) else column + 1
                amount = to_int(words[i + 1])
                self.rounds[current].append((seat, words[i], amount))
                if words[i] == "Fold":
                    self.folded.add(seat)
                column += 1
                i += 1
            i += 1

    def current_round(self) -> str:
        if self.stage in self.rounds:
            return self.stage
        seen = [name for name in ROUNDS if name in self.rounds]
        return seen[-1] if seen else "Pre_Flop"

    def round_totals(self, name: str) -> dict[int, int]:
        """Each seat's total put in during round `name` (its last entry)."""
        totals: dict[int, int] = {}
        for seat, _action, amount in self.rounds.get(name, []):
            totals[seat] = amount
        return totals

    def deal_totals(self) -> dict[int, int]:
        """Each seat's total put in during the whole deal."""
        totals: dict[int, int] = {}
        for name in ROUNDS:
            for seat, amount in self.round_totals(name).items():
                totals[seat] = totals.get(seat, 0) + amount
        return totals

    def min_raise(self, name: str) -> int:
        """The smallest full raise now: the opening minimum, or the largest raise step seen this round."""
        opening = BIG_BLIND if name in ("Pre_Flop", "Flop") else 2 * BIG_BLIND
        levels = sorted({amount for _seat, action, amount in self.rounds.get(name, []) if action == "Rise"})
        steps = [b - a for a, b in zip([0, *levels], levels, strict=False)]
        return max([opening, *steps])


def read_money(text: str) -> tuple[int, dict[int, int]]:
    """The deal number and each seat's chips before the deal, from deals_money.txt."""
    deal, money = 0, {}
    for line in text.splitlines():
        words = line.split()
        if len(words) >= 2 and words[0] == "Deal":
            deal = to_int(words[1])
        elif len(words) >= 2 and words[0].isdigit():
            money[int(words[0])] = to_int(words[1])
    return deal, money


def category(cards: list[int]) -> int:
    """The category (0 high card .. 8 straight flush) of the best five of these 1..52 cards."""
    ranks = [(c - 1) % 13 for c in cards]
    suits = [(c - 1) // 13 for c in cards]
    counts = sorted((ranks.count(r) for r in set(ranks)), reverse=True)

    def has_straight(rank_set: set[int]) -> bool:
        bits = set(rank_set) | ({-1} if 12 in rank_set else set())
        return any(all(r + k in bits for k in range(5)) for r in range(-1, 9))

    flush_suit = next((s for s in range(4) if suits.count(s) >= 5), None)
    if flush_suit is not None:
        flush_ranks = {rank for rank, suit in zip(ranks, suits, strict=True) if suit == flush_suit}
        if has_straight(flush_ranks):
            return 8
    if counts[0] >= 4:
        return 7
    if counts[0] == 3 and len(counts) > 1 and counts[1] >= 2:
        return 6
    if flush_suit is not None:
        return 5
    if has_straight(set(ranks)):
        return 4
    if counts[0] == 3:
        return 3
    if counts[0] == 2 and len(counts) > 1 and counts[1] == 2:
        return 2
    return 1 if counts[0] == 2 else 0


def hand_class(hole: list[int], board: list[int]) -> str:
    """A coarse class of the hand: pre-flop by pair/high cards/suits, later by what the hole cards add."""
    if not board:
        high, low = sorted(((c - 1) % 13 for c in hole), reverse=True)
        if high == low:
            return "bigpair" if high >= 7 else "pair"
        suited = (hole[0] - 1) // 13 == (hole[1] - 1) // 13
        if low >= 8:
            return "broadway"
        if high == 12:
            return "ace"
        return "suited" if suited or high - low == 1 else "junk"
    mine, shared = category(hole + board), category(board)
    return CATEGORY[min(mine, 4)] if mine > shared else "board"


def load_table() -> dict[tuple[str, str], list[int]]:
    table: dict[tuple[str, str], list[int]] = {}
    for line in read_text(TABLE).splitlines():
        words = line.split()
        if len(words) == 4:
            table[(words[0], words[1])] = [to_int(words[2]), to_int(words[3])]
    return table


def save(path: str, lines: list[str]) -> None:
    os.makedirs(HELP_DIR, exist_ok=True)
    temporary = path + ".tmp"
    with open(temporary, "w") as handle:
        handle.write("".join(line + "\n" for line in lines))
    os.replace(temporary, path)


def settle(pending: list[list[str]], final_stack: int) -> None:
    """Add the chips won since each pending decision to the result table."""
    table = load_table()
    for _deal, _key, state, choice, stack in pending:
        games, chips = table.get((state, choice), [0, 0])
        table[(state, choice)] = [games + 1, chips + final_stack - to_int(stack)]
    save(TABLE, [f"{s} {c} {g} {w}" for (s, c), (g, w) in sorted(table.items())])


def choose(state: str, allowed: list[str], rng: random.Random) -> str:
    table = load_table()
    if rng.random() < EXPLORE:
        return rng.choice(allowed)

    def value(choice: str) -> float:
        games, chips = table.get((state, choice), [0, 0])
        return float("inf") if games == 0 else chips / games

    return max(allowed, key=value)  # ties keep the order of `allowed`


def main() -> None:
    inputs = [read_text(name) for name in ("inputf.txt", "deals_money.txt", "deal.txt")]
    numbers = [to_int(w) for w in inputs[0].split()] + [0, 0, 0, 0]
    hole, seat, spent = numbers[0:2], numbers[2], numbers[3]
    deal_number, money = read_money(inputs[1])
    deal = Deal(inputs[2])
    pending = [line.split() for line in read_text(PENDING).splitlines() if len(line.split()) == 5]
    older = [p for p in pending if to_int(p[0]) < deal_number]
    if older and seat in money:
        settle(older, money[seat])
    pending = [p for p in pending if to_int(p[0]) == deal_number]
    if deal.stage == "Show_Down":
        if seat not in deal.winners:
            others = [v for s, v in deal.deal_totals().items() if s != seat]
            settle(pending, money.get(seat, 0) - min(spent, max(others, default=spent)))
            pending = []
        save(PENDING, [" ".join(p) for p in pending])
        return
    name = deal.current_round()
    totals = deal.round_totals(name)
    to_call = max(totals.values(), default=0) - totals.get(seat, 0)
    stack = money.get(seat, 1500) - spent
    allowed = ["call", "raise", "fold"] if to_call > 0 else ["call", "raise"]
    if stack <= to_call:
        allowed.remove("raise")
    state = f"{name}:{hand_class(hole, deal.board)}:{'bet' if to_call > 0 else 'free'}"
    key = hashlib.sha256("\0".join(inputs).encode()).hexdigest()
    rng = random.Random(int(key, 16))
    choice = choose(state, allowed, rng)
    answer = {"fold": -10, "call": 0}.get(choice)
    if answer is None:
        answer = min(max(deal.min_raise(name), deal.pot // 2), stack - to_call)
    entry = [str(deal_number), key[:16], state, choice, str(stack)]
    pending = [p for p in pending if p[1] != key[:16]] + [entry]
    save(PENDING, [" ".join(p) for p in pending])
    with open("outputf.txt", "w") as out:
        out.write(f"{answer}\n")


if __name__ == "__main__":
    main()

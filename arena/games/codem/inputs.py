"""Code'em's ``inputf.txt`` and ``deals_money.txt``, byte for byte as the statement's examples show."""

from __future__ import annotations

from collections.abc import Sequence

from arena.cards import to_codem


def render_inputf(cards: tuple[int, int], *, seat: int, spent: int) -> str:
    """``card1 card2 player spent`` separated by ten spaces (cards numbered 1..52)."""
    gap = "          "
    return f"{to_codem(cards[0])}{gap}{to_codem(cards[1])}{gap}{seat}{gap}{spent}\n"


def render_deals_money(deal: int, stacks: Sequence[int]) -> str:
    """``Deal N`` then each seat's chips before the deal, right-aligned as in the statement's example."""
    lines = [f"Deal{deal:>11}"]
    lines.extend(f"{seat}{money:>16}" for seat, money in enumerate(stacks, 1))
    return "\n".join(lines) + "\n"

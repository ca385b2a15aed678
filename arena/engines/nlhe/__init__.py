"""No-Limit Hold'em: table rules, actions, pots and the deal state machine (pure)."""

from arena.engines.nlhe.actions import Action, CheckCall, Fold, RaiseTo
from arena.engines.nlhe.deal import Deal
from arena.engines.nlhe.pots import Pot, side_pots, split_pot
from arena.engines.nlhe.rules import TableRules, choose_first_dealer, next_dealer

__all__ = [
    "Action",
    "CheckCall",
    "Deal",
    "Fold",
    "Pot",
    "RaiseTo",
    "TableRules",
    "choose_first_dealer",
    "next_dealer",
    "side_pots",
    "split_pot",
]

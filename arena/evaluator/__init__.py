"""Hand strength of the best five of up to seven cards, shared by every hold'em game.

``evaluate(cards)`` returns an ``int``: higher is stronger, equal means a tie; ``category(strength)`` gives
its :class:`HandCategory`. The engines call ``evaluate`` (heads-up) and ``evaluate_holes`` (a No-Limit
showdown); ``evaluate_batch`` ranks the rows of a numpy array; rollouts rank summed card keys with
``few_strengths_from_sums``, ``CARD_KEYS``, ``card_key_array`` and ``card_bit_array``.

The package, one module per idea:

* ``ranking``: the ranking rules as data (categories, straights, what each category compares) and the
  strength layout;
* ``keys``: card keys and the lookup tables built from the rules at import;
* ``hands``: one hand at a time (``evaluate``, ``evaluate_holes``);
* ``batch``: many hands at once with numpy, through a perfect hash of the rank sums.

The rank keys were found offline by ``tools/derive_rank_keys.py``.
"""

from arena.evaluator.batch import evaluate_batch, few_strengths_from_sums
from arena.evaluator.card_keys import CARD_KEYS, RANK_KEYS, card_bit_array, card_key_array
from arena.evaluator.ranking import HandCategory, category
from arena.evaluator.single import evaluate, evaluate_holes

__all__ = [
    "CARD_KEYS",
    "RANK_KEYS",
    "HandCategory",
    "card_bit_array",
    "card_key_array",
    "category",
    "evaluate",
    "evaluate_batch",
    "evaluate_holes",
    "few_strengths_from_sums",
]

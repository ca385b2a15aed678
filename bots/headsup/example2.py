"""Seed 003's example2 as a Python module: all-in when the sampled win rate beats the lose rate."""

from texas import ActionType, State, get_rates_by_sampling

_stack = 100  # Alice's chips behind in the current hand


def make_decision(state: State) -> tuple[ActionType, int]:
    global _stack
    if state.community[0].value == -1:  # round 1: a new hand
        _stack = 100
    if _stack == 0:
        return ActionType.CHECK, 0
    win, tie = get_rates_by_sampling(state, 60)
    if win > 1 - win - tie:
        everything, _stack = _stack, 0
        return ActionType.RAISE, everything
    return ActionType.CHECK, 0

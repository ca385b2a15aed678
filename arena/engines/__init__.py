"""Pure rules engines, one per game: state, legal actions, apply an action, emit events."""

"""Game adapters: an engine's decision point to what a program is given, and its answer to an action."""

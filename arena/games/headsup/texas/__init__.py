"""The texas.h interface as arena ships it: texas.h and the drivers copied into a player's sandbox."""

"""Hand histories the poker world reads (PHH, PokerStars text, ACPC logs), rendered from recorded events."""

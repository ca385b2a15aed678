"""One package per game: Code'em (the main game), heads-up hold'em and TwoCardDraw."""

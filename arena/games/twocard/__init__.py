"""TwoCardDraw players: the judge, the seats (line, file, class interfaces) and the match."""

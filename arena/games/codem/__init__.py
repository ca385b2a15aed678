"""Code'em Poker, the main game: its table loop, protocol files, deal.txt, input files and statistics."""

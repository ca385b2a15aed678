"""Seed 000's sample solution in its class interface: bet/raise with a pair of 4s, else check/call."""


class TwoCardDraw:
    def init(self, bet1, bet2):
        return 0

    def new_hand(self, card1, card2, winnings):
        return 1 if card1 == card2 == 4 else 0

    def round1(self, card1, card2, bets):
        return 2 if card1 == card2 == 4 and bets < 3 else 1

    def draw(self, card1, card2, bets):
        return 0

    def round2(self, card1, card2, bets1, bets2, drew):
        return 2 if card1 == card2 == 4 and bets2 < 3 else 1

    def showdown(self, card1, card2, opp1, opp2):
        return 0

// Seed 000's sample solution in Java, class interface: bet/raise with a pair of 4s, else check/call.
public class TwoCardDraw {
    public int init(int bet1, int bet2) { return 0; }
    public int new_hand(int card1, int card2, int winnings) { return card1 == 4 && card2 == 4 ? 1 : 0; }
    public int round1(int card1, int card2, int bets) { return card1 == 4 && card2 == 4 && bets < 3 ? 2 : 1; }
    public int draw(int card1, int card2, int bets) { return 0; }
    public int round2(int card1, int card2, int bets1, int bets2, int drew) {
        return card1 == 4 && card2 == 4 && bets2 < 3 ? 2 : 1;
    }
    public int showdown(int card1, int card2, int opp1, int opp2) { return 0; }
}

// Equity: a Code'em Poker team program (Java 17) that estimates its chance of winning by simulation.
//
// Each decision deals the unknown cards at random TRIALS times: a hand for every live opponent and the
// rest of the board, and counts how often its own best five cards win (a tie counts as a share). An
// opponent who raised in this deal (blinds aside) is not dealt any two cards: its hand is drawn from
// the range such a player raises with, the best RAISE_RANGE of starting hands by a Chen-style score for
// one raise and the best RERAISE_RANGE for two raises or more, so an aggressive raiser is credited with
// a wide range and a re-raiser with a narrow one. With that equity it compares the pot odds (the price
// of a call against the pot it would win): it calls when the equity beats the odds by a margin, raises
// three quarters of the pot with a clearly strong equity, and otherwise checks or folds. Deep stacks:
// once the deal would hold more than DEEP (100 big blinds) of its chips it raises only with an equity
// of 85% and calls a bet bigger than the pot before it only with 60%. The random generator is seeded
// with a hash of the three input files, so the same files always give the same answer. The program
// avoids the costly parts of JVM start-up (lambdas, streams, regular expressions, string
// concatenation) so that one decision stays well inside the time limit.
//
// Files: reads inputf.txt, deals_money.txt, deal.txt (split on white space); writes one integer to
// outputf.txt, nothing at Stage Show_Down. No help files.
// Build: javac Equity.java   Run: java -cp . Equity
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;

public class Equity {
    static final int BIG_BLIND = 10;
    static final int TRIALS = 1500;
    static final double RAISE_RANGE = 0.40;     // share of starting hands a single raise is credited with
    static final double RERAISE_RANGE = 0.15;   // ... and two raises or more
    static final int DEEP = 100 * BIG_BLIND;    // chips in one deal past which only a near-sure winner raises
    static final double DEEP_RAISE = 0.85;      // ... the equity it needs to raise there
    static final double DEEP_CALL = 0.60;       // ... and to call a bet bigger than the pot before it
    static final int DRAW_ATTEMPTS = 30;        // redraws of an opponent's hand before taking any two cards
    static final String[] ROUNDS = {"Pre_Flop", "Flop", "Fourth_Street", "Fifth_Street"};

    // ---- deal.txt, read by white space ----
    String stage = "";
    int pot = 0;
    final List<Integer> board = new ArrayList<>();
    final Map<String, List<int[]>> rounds = new HashMap<>();   // round -> {seat, kind, total} in order
    final TreeSet<Integer> folded = new TreeSet<>();

    static String read(String path) {
        try {
            return new String(Files.readAllBytes(Path.of(path)), StandardCharsets.ISO_8859_1);
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    static boolean isNumber(String word) {
        int start = word.startsWith("-") ? 1 : 0;
        if (word.length() <= start || word.length() - start > 9) return false;
        for (int i = start; i < word.length(); i++) if (word.charAt(i) < '0' || word.charAt(i) > '9') return false;
        return true;
    }

    // The words of a line, split on white space.
    static String[] words(String line) {
        List<String> found = new ArrayList<>();
        int i = 0;
        while (i < line.length()) {
            while (i < line.length() && Character.isWhitespace(line.charAt(i))) i++;
            int start = i;
            while (i < line.length() && !Character.isWhitespace(line.charAt(i))) i++;
            if (i > start) found.add(line.substring(start, i));
        }
        return found.toArray(new String[0]);
    }

    static boolean isRound(String word) {
        for (String name : ROUNDS) if (name.equals(word)) return true;
        return false;
    }

    void readDeal(String text) {
        String current = "";
        List<Integer> header = new ArrayList<>();
        int boardLeft = 0;
        for (String line : text.split("\n")) {
            String[] words = words(line);
            if (words.length == 0) continue;
            String head = words[0];
            boolean allNumbers = true;
            for (String w : words) allNumbers &= isNumber(w);
            if (words.length >= 2 && head.equals("Stage")) {
                stage = words[1];
            } else if (words.length >= 2 && head.equals("Main_Pot") && isNumber(words[1])) {
                pot = Integer.parseInt(words[1]);
            } else if (words.length == 1 && (isRound(head) || head.equals("Show_Down"))) {
                current = head;
                header.clear();
                boardLeft = head.equals("Flop") ? 3 : head.equals("Fourth_Street") || head.equals("Fifth_Street") ? 1 : 0;
                rounds.putIfAbsent(current, new ArrayList<>());
            } else if (current.isEmpty() || current.equals("Show_Down") || head.equals("End")) {
                continue;
            } else if (allNumbers) {
                if (boardLeft > 0) {
                    for (int i = 0; i < words.length && i < boardLeft; i++) board.add(Integer.parseInt(words[i]));
                    boardLeft = 0;
                } else if (header.isEmpty()) {
                    for (String w : words) header.add(Integer.parseInt(w));
                }
            } else {
                int column = 0;
                for (int i = 0; i < words.length; i++) {
                    if (words[i].equals("-")) {
                        column++;
                    } else if ((words[i].equals("Call") || words[i].equals("Rise") || words[i].equals("Fold"))
                            && i + 1 < words.length && isNumber(words[i + 1])) {
                        int seat = column < header.size() ? header.get(column) : column + 1;
                        rounds.get(current).add(new int[] {seat, words[i].charAt(0), Integer.parseInt(words[i + 1])});
                        if (words[i].equals("Fold")) folded.add(seat);
                        column++;
                        i++;
                    }
                }
            }
        }
    }

    String currentRound() {
        if (rounds.containsKey(stage)) return stage;
        for (int i = ROUNDS.length - 1; i >= 0; i--) if (rounds.containsKey(ROUNDS[i])) return ROUNDS[i];
        return "Pre_Flop";
    }

    List<int[]> actions(String round) {
        List<int[]> found = rounds.get(round);
        return found == null ? new ArrayList<>() : found;
    }

    int minRaise(String round) {
        int minimum = round.equals("Pre_Flop") || round.equals("Flop") ? BIG_BLIND : 2 * BIG_BLIND;
        TreeSet<Integer> levels = new TreeSet<>();
        for (int[] a : actions(round)) if (a[1] == 'R') levels.add(a[2]);
        int previous = 0;
        for (int level : levels) {
            minimum = Math.max(minimum, level - previous);
            previous = level;
        }
        return minimum;
    }

    // How many times `seat` raised in this deal; the blinds (the first two pre-flop Rise cells of at most
    // a big blind) are not raises.
    int raisesBy(int seat) {
        int count = 0;
        for (String round : ROUNDS) {
            int blinds = 0;
            for (int[] a : actions(round)) {
                if (a[1] != 'R') continue;
                if (round.equals("Pre_Flop") && blinds < 2 && a[2] <= BIG_BLIND) {
                    blinds++;
                    continue;
                }
                if (a[0] == seat) count++;
            }
        }
        return count;
    }

    // ---- a seven-card evaluator: higher wins, equal ties ----
    static int straightTop(int mask) {
        int bits = (mask << 1) | ((mask >> 12) & 1);   // bit r+1 is rank r, bit 0 the ace played low
        for (int top = 13; top >= 4; top--) if (((bits >> (top - 4)) & 0x1F) == 0x1F) return top - 1;
        return -1;
    }

    static int evaluate(int[] cards, int n) {
        int[] count = new int[13];
        int[] suitMask = new int[4];
        int[] suitCount = new int[4];
        int mask = 0;
        for (int i = 0; i < n; i++) {
            int rank = (cards[i] - 1) % 13, suit = (cards[i] - 1) / 13;
            count[rank]++;
            suitCount[suit]++;
            suitMask[suit] |= 1 << rank;
            mask |= 1 << rank;
        }
        int flushSuit = -1;
        for (int s = 0; s < 4; s++) if (suitCount[s] >= 5) flushSuit = s;
        if (flushSuit >= 0 && straightTop(suitMask[flushSuit]) >= 0) return 8 << 20 | straightTop(suitMask[flushSuit]);
        int quad = -1, trips = -1, trips2 = -1, pair = -1, pair2 = -1;
        for (int r = 12; r >= 0; r--) {
            if (count[r] == 4) quad = r;
            else if (count[r] == 3) { if (trips < 0) trips = r; else if (trips2 < 0) trips2 = r; }
            else if (count[r] == 2) { if (pair < 0) pair = r; else if (pair2 < 0) pair2 = r; }
        }
        if (quad >= 0) return 7 << 20 | quad << 4 | highest(mask & ~(1 << quad), 1);
        if (trips >= 0 && (trips2 >= 0 || pair >= 0)) return 6 << 20 | trips << 4 | Math.max(trips2, pair);
        if (flushSuit >= 0) return 5 << 20 | highest(suitMask[flushSuit], 5);
        if (straightTop(mask) >= 0) return 4 << 20 | straightTop(mask);
        if (trips >= 0) return 3 << 20 | trips << 8 | highest(mask & ~(1 << trips), 2);
        if (pair2 >= 0) return 2 << 20 | pair << 8 | pair2 << 4 | highest(mask & ~(1 << pair) & ~(1 << pair2), 1);
        if (pair >= 0) return 1 << 20 | pair << 12 | highest(mask & ~(1 << pair), 3);
        return highest(mask, 5);
    }

    // The `k` highest ranks of a rank mask, packed four bits each, highest first.
    static int highest(int mask, int k) {
        int packed = 0;
        for (int r = 12; r >= 0 && k > 0; r--) {
            if ((mask >> r & 1) != 0) {
                packed = packed << 4 | r;
                k--;
            }
        }
        return packed << (4 * k);
    }

    // ---- opponents' starting-hand ranges ----

    // A Chen-style score of two cards, doubled to stay whole: higher is a better starting hand.
    static int startingScore(int c1, int c2) {
        int[] high = {2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 14, 16, 20};
        int a = (c1 - 1) % 13, b = (c2 - 1) % 13;
        int top = Math.max(a, b), low = Math.min(a, b);
        if (top == low) return Math.max(10, 2 * high[top]);
        int score = high[top];
        if ((c1 - 1) / 13 == (c2 - 1) / 13) score += 4;
        int gap = top - low - 1;
        score -= gap == 0 ? 0 : gap == 1 ? 2 : gap == 2 ? 4 : gap == 3 ? 8 : 10;
        if (gap <= 1 && top < 10) score += 2;
        return score;
    }

    // The lowest starting score among the best `share` of all 1326 two-card hands.
    static int rangeThreshold(double share) {
        int[] scores = new int[1326];
        int n = 0;
        for (int c1 = 1; c1 <= 52; c1++) for (int c2 = c1 + 1; c2 <= 52; c2++) scores[n++] = startingScore(c1, c2);
        Arrays.sort(scores);
        int keep = Math.max(1, (int) Math.round(share * n));
        return scores[n - keep];
    }

    // The share of the pot won on average against the opponents; opponent `o` is dealt a hand scoring at
    // least minScore[o] (after DRAW_ATTEMPTS misses it keeps the last hand drawn).
    static double equity(int[] hole, List<Integer> board, int[] minScore, Random random) {
        int opponents = minScore.length;
        boolean[] used = new boolean[53];
        for (int c : hole) used[c] = true;
        for (int c : board) used[c] = true;
        int[] deck = new int[52];
        int size = 0;
        for (int c = 1; c <= 52; c++) if (!used[c]) deck[size++] = c;
        int missing = 5 - board.size();
        int[] mine = new int[7], theirs = new int[7];
        double won = 0;
        for (int trial = 0; trial < TRIALS; trial++) {
            int dealt = 0;   // deck[0 .. dealt) are taken this trial (partial Fisher-Yates shuffle)
            for (int o = 0; o < opponents; o++) {
                for (int attempt = 0; ; attempt++) {
                    for (int i = dealt; i < dealt + 2; i++) {
                        int j = i + random.nextInt(size - i);
                        int t = deck[i];
                        deck[i] = deck[j];
                        deck[j] = t;
                    }
                    if (startingScore(deck[dealt], deck[dealt + 1]) >= minScore[o] || attempt >= DRAW_ATTEMPTS) break;
                }
                dealt += 2;
            }
            for (int i = dealt; i < dealt + missing; i++) {
                int j = i + random.nextInt(size - i);
                int t = deck[i];
                deck[i] = deck[j];
                deck[j] = t;
            }
            mine[0] = hole[0];
            mine[1] = hole[1];
            for (int i = 0; i < board.size(); i++) mine[2 + i] = board.get(i);
            for (int i = 0; i < missing; i++) mine[2 + board.size() + i] = deck[dealt + i];
            int best = evaluate(mine, 7);
            int ties = 1;
            boolean lost = false;
            for (int o = 0; o < opponents && !lost; o++) {
                System.arraycopy(mine, 2, theirs, 2, 5);
                theirs[0] = deck[2 * o];
                theirs[1] = deck[2 * o + 1];
                int score = evaluate(theirs, 7);
                if (score > best) lost = true;
                else if (score == best) ties++;
            }
            if (!lost) won += 1.0 / ties;
        }
        return won / TRIALS;
    }

    public static void main(String[] args) throws IOException {
        String inputText = read("inputf.txt"), moneyText = read("deals_money.txt"), dealText = read("deal.txt");
        int[] numbers = new int[4];
        String[] inputWords = words(inputText);
        for (int i = 0; i < 4 && i < inputWords.length; i++) numbers[i] = isNumber(inputWords[i]) ? Integer.parseInt(inputWords[i]) : 0;
        int[] hole = {numbers[0], numbers[1]};
        int seat = numbers[2], spent = numbers[3];

        Equity deal = new Equity();
        deal.readDeal(dealText);
        if (deal.stage.equals("Show_Down")) return;

        Map<Integer, Integer> money = new HashMap<>();
        for (String line : moneyText.split("\n")) {
            String[] w = words(line);
            if (w.length >= 2 && isNumber(w[0]) && isNumber(w[1])) money.put(Integer.parseInt(w[0]), Integer.parseInt(w[1]));
        }
        List<Integer> live = new ArrayList<>();
        for (Map.Entry<Integer, Integer> e : new java.util.TreeMap<>(money).entrySet())
            if (e.getValue() > 0 && e.getKey() != seat && !deal.folded.contains(e.getKey())) live.add(e.getKey());
        int opponents = Math.max(1, Math.min(live.size(), 5));
        int raiseScore = rangeThreshold(RAISE_RANGE), reraiseScore = rangeThreshold(RERAISE_RANGE);
        int[] minScore = new int[opponents];   // 0: any two cards
        for (int o = 0; o < opponents && o < live.size(); o++) {
            int raises = deal.raisesBy(live.get(o));
            minScore[o] = raises >= 2 ? reraiseScore : raises == 1 ? raiseScore : 0;
        }

        String round = deal.currentRound();
        Map<Integer, Integer> totals = new HashMap<>();
        for (int[] a : deal.actions(round)) totals.put(a[0], a[2]);
        int highest = 0;
        for (int total : totals.values()) highest = Math.max(highest, total);
        int toCall = Math.max(0, highest - totals.getOrDefault(seat, 0));
        int behind = money.getOrDefault(seat, 1500) - spent - toCall;
        int potAfterCall = deal.pot + toCall;

        boolean validCards = hole[0] >= 1 && hole[0] <= 52 && hole[1] >= 1 && hole[1] <= 52 && hole[0] != hole[1];
        List<Integer> board = new ArrayList<>();
        for (int c : deal.board) if (c >= 1 && c <= 52 && c != hole[0] && c != hole[1] && !board.contains(c) && board.size() < 5) board.add(c);
        long seed = 1125899906842597L;
        for (String text : new String[] {inputText, moneyText, dealText})
            for (int i = 0; i < text.length(); i++) seed = 31 * seed + text.charAt(i);
        double share = validCards ? equity(hole, board, minScore, new Random(seed)) : 0.0;

        double odds = toCall == 0 ? 0.0 : (double) toCall / potAfterCall;   // my share of the pot I would win
        boolean strong = share >= 0.65 || (opponents >= 2 && share >= 2.0 / (opponents + 1));
        int answer = toCall > 0 ? -10 : 0;
        if (strong && behind > 0) answer = Math.min(Math.max(potAfterCall * 3 / 4, deal.minRaise(round)), behind);
        else if (toCall > 0 && share >= odds + 0.05) answer = 0;
        if (answer > 0 && spent + toCall + answer > DEEP && share < DEEP_RAISE) answer = 0;
        if (answer == 0 && spent + toCall > DEEP && toCall * 2 > deal.pot && share < DEEP_CALL) answer = -10;
        Files.write(Path.of("outputf.txt"), Integer.toString(answer).concat("\n").getBytes(StandardCharsets.US_ASCII));
    }
}

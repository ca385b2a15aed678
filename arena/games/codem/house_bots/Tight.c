/*
 * Tight: a Code'em Poker team program (C) that plays few hands and plays them hard.
 *
 * Pre-flop it sorts its two cards into hand groups (1 = best .. 9 = trash, after Sklansky's groups):
 * group 1 raises and re-raises whatever it faces; group 2 raises up to 4 big blinds and calls a bigger
 * raise costing at most a fifth of its stack; group 3 calls a raise of up to 6 big blinds (at most a
 * tenth of its stack); group 4 calls up to 3 big blinds; anything else folds to a bet (and checks when
 * free). So it defends against an aggressive raiser with its good hands instead of folding them.
 * After the flop it evaluates its best five of seven cards with a small evaluator of its own and asks
 * what its hole cards add to the board: two pair of its own raises (a re-raise war only with trips or
 * better), top pair, an overpair or a pair on a paired board calls a bet of up to the pot, anything
 * weaker checks or folds to a bet.
 * Deep stacks: once the deal would hold more than DEEP (100 big blinds) of its chips, only a monster
 * (A-A pre-flop, a full house or better later) raises, and anything else folds to a bet bigger than
 * the pot before it.
 *
 * Files: reads inputf.txt, deals_money.txt, deal.txt (split on white space, so irregular layouts are
 * fine); writes one integer to outputf.txt, nothing at Stage Show_Down. No help files.
 * Build: gcc -O2 -o Tight Tight.c -lm
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BIG_BLIND 10
#define RAISE_GROUP 2   /* pre-flop: hand groups up to this one raise */
#define CALL_GROUP 3    /* ... up to this one call a raise of at most 6 big blinds */
#define DEFEND_GROUP 4  /* ... and up to this one call a raise of at most 3 big blinds */
#define DEEP (100 * BIG_BLIND)   /* chips in one deal past which only a monster raises */
#define MAX_SEATS 16
#define MAX_LINE 512

enum { PRE_FLOP, FLOP, TURN, RIVER, SHOW_DOWN, NO_ROUND };
static const char *ROUND_NAMES[] = {"Pre_Flop", "Flop", "Fourth_Street", "Fifth_Street", "Show_Down"};

typedef struct {
    int stage;                        /* round being asked about */
    int pot;                          /* Main_Pot */
    int board[5], board_count;
    int bet[5][MAX_SEATS + 1];        /* per round: each seat's total put in during that round */
    int rise_levels[5][64], rise_count[5];
    int folded[MAX_SEATS + 1];
} Deal;

static int round_index(const char *word) {
    for (int i = 0; i < 5; i++)
        if (strcmp(word, ROUND_NAMES[i]) == 0) return i;
    return NO_ROUND;
}

static int is_number(const char *word) {
    if (*word == '-') word++;
    if (!*word) return 0;
    for (; *word; word++)
        if (*word < '0' || *word > '9') return 0;
    return 1;
}

/* Read deal.txt line by line; every line is split on white space. */
static void read_deal(Deal *d) {
    memset(d, 0, sizeof *d);
    d->stage = NO_ROUND;
    FILE *f = fopen("deal.txt", "r");
    if (!f) return;
    char line[MAX_LINE];
    int current = NO_ROUND, header[MAX_SEATS], header_len = 0, board_left = 0;
    while (fgets(line, sizeof line, f)) {
        char *words[64];
        int n = 0;
        for (char *w = strtok(line, " \t\r\n"); w && n < 64; w = strtok(NULL, " \t\r\n")) words[n++] = w;
        if (n == 0) continue;
        if (n >= 2 && strcmp(words[0], "Stage") == 0) { d->stage = round_index(words[1]); continue; }
        if (n >= 2 && strcmp(words[0], "Main_Pot") == 0) { d->pot = atoi(words[1]); continue; }
        if (n == 1 && round_index(words[0]) != NO_ROUND) {
            current = round_index(words[0]);
            header_len = 0;
            board_left = current == FLOP ? 3 : (current == TURN || current == RIVER) ? 1 : 0;
            continue;
        }
        if (current >= SHOW_DOWN || strcmp(words[0], "End") == 0) continue;
        int all_numbers = 1;
        for (int i = 0; i < n; i++) all_numbers &= is_number(words[i]);
        if (all_numbers) {
            if (board_left > 0) {
                for (int i = 0; i < n && i < board_left && d->board_count < 5; i++)
                    d->board[d->board_count++] = atoi(words[i]);
                board_left = 0;
            } else if (header_len == 0) {
                for (int i = 0; i < n && i < MAX_SEATS; i++) header[header_len++] = atoi(words[i]);
            }
            continue;
        }
        /* A row of cells: "-" or "Call n" / "Rise n" / "Fold n", one per header column. */
        for (int i = 0, column = 0; i < n; i++) {
            if (strcmp(words[i], "-") == 0) { column++; continue; }
            int is_action = !strcmp(words[i], "Call") || !strcmp(words[i], "Rise") || !strcmp(words[i], "Fold");
            if (!is_action || i + 1 >= n) continue;
            int seat = column < header_len ? header[column] : column + 1;
            int amount = atoi(words[i + 1]);
            if (seat >= 1 && seat <= MAX_SEATS) {
                d->bet[current][seat] = amount;
                if (words[i][0] == 'F') d->folded[seat] = 1;
            }
            if (words[i][0] == 'R' && d->rise_count[current] < 64)
                d->rise_levels[current][d->rise_count[current]++] = amount;
            column++;
            i++;
        }
    }
    fclose(f);
}

/* Chips of `seat` before the deal, from deals_money.txt (1500 when the file does not say). */
static int read_money(int seat) {
    FILE *f = fopen("deals_money.txt", "r");
    int money = 1500;
    if (!f) return money;
    char word[64];
    long s, v;
    while (fscanf(f, "%63s", word) == 1) {
        if (strcmp(word, "Deal") == 0) { if (fscanf(f, "%ld", &v) != 1) break; continue; }
        s = strtol(word, NULL, 10);
        if (fscanf(f, "%ld", &v) != 1) break;
        if (s == seat) money = (int)v;
    }
    fclose(f);
    return money;
}

/* ---- A small seven-card evaluator: a score where higher wins. ---- */

static int straight_top(unsigned mask) {
    unsigned bits = (mask << 1) | ((mask >> 12) & 1);   /* bit r+1 is rank r; bit 0 is the ace played low */
    for (int top = 13; top >= 4; top--)
        if (((bits >> (top - 4)) & 0x1F) == 0x1F) return top - 1;
    return -1;
}

static long evaluate(const int *cards, int n) {
    int count[13] = {0}, suit_count[4] = {0};
    unsigned suit_mask[4] = {0}, mask = 0;
    for (int i = 0; i < n; i++) {
        int rank = (cards[i] - 1) % 13, suit = (cards[i] - 1) / 13;
        count[rank]++;
        suit_count[suit]++;
        suit_mask[suit] |= 1u << rank;
        mask |= 1u << rank;
    }
    for (int s = 0; s < 4; s++)
        if (suit_count[s] >= 5 && straight_top(suit_mask[s]) >= 0) return 8L << 20 | straight_top(suit_mask[s]);
    int quad = -1, trips[2] = {-1, -1}, pairs[3] = {-1, -1, -1}, nt = 0, np = 0;
    for (int r = 12; r >= 0; r--) {
        if (count[r] == 4 && quad < 0) quad = r;
        else if (count[r] == 3 && nt < 2) trips[nt++] = r;
        else if (count[r] == 2 && np < 3) pairs[np++] = r;
    }
    long kickers = 0;
    int used = 0;
    if (quad >= 0) {
        for (int r = 12; r >= 0; r--) if (r != quad && count[r]) { kickers = r; break; }
        return 7L << 20 | quad << 4 | kickers;
    }
    if (trips[0] >= 0 && (trips[1] >= 0 || pairs[0] >= 0)) {
        int pair = trips[1] > pairs[0] ? trips[1] : pairs[0];
        return 6L << 20 | trips[0] << 4 | pair;
    }
    for (int s = 0; s < 4; s++)
        if (suit_count[s] >= 5) {
            for (int r = 12; r >= 0 && used < 5; r--) if (suit_mask[s] >> r & 1) { kickers = kickers << 4 | r; used++; }
            return 5L << 20 | kickers;
        }
    if (straight_top(mask) >= 0) return 4L << 20 | straight_top(mask);
    int category = trips[0] >= 0 ? 3 : np >= 2 ? 2 : np == 1 ? 1 : 0;
    int list[5], len = 0;
    if (category == 3) list[len++] = trips[0];
    if (category == 2 || category == 1) list[len++] = pairs[0];
    if (category == 2) list[len++] = pairs[1];
    int made = len;
    for (int r = 12; r >= 0 && len < 5 && len < made + (category == 3 ? 2 : category == 2 ? 1 : category == 1 ? 3 : 5); r--) {
        int taken = 0;
        for (int i = 0; i < made; i++) taken |= list[i] == r;
        if (count[r] && !taken) list[len++] = r;
    }
    long score = category;
    for (int i = 0; i < 5; i++) score = score << 4 | (i < len ? list[i] : 0);
    return score;
}

static int category_of(long score) { return (int)(score >> 20); }

/* Sklansky-style hand groups, 1 (best) .. 9 (play never). */
static int hand_group(int c1, int c2) {
    int a = (c1 - 1) % 13, b = (c2 - 1) % 13;
    int high = a > b ? a : b, low = a > b ? b : a;
    int suited = (c1 - 1) / 13 == (c2 - 1) / 13, gap = high - low;
    if (high == low) return high >= 10 ? 1 : high >= 8 ? 2 : high >= 6 ? 3 : high >= 4 ? 5 : 6;
    if (high == 12 && low == 11) return suited ? 1 : 2;
    if (high >= 9 && low >= 8) return suited ? 2 : 3;      /* two broadway cards (T and up) */
    if (high == 12) return suited ? 4 : 6;                  /* ace with a small card */
    if (suited && gap == 1 && low >= 4) return 4;           /* suited connectors 65s and up */
    if (suited && gap <= 2 && low >= 3) return 5;
    if (gap == 1 && low >= 6) return 6;
    return 9;
}

/* Raise by `wanted`, raised to the minimum raise and clipped to the stack (an over-stack raise is all-in). */
static int sized_raise(int wanted, int min_raise, int stack_after_call) {
    if (stack_after_call <= 0) return 0;
    if (wanted < min_raise) wanted = min_raise;
    return wanted > stack_after_call ? stack_after_call : wanted;
}

int main(void) {
    int c1 = 0, c2 = 0, seat = 0, spent = 0;
    FILE *in = fopen("inputf.txt", "r");
    if (in) {
        int fields = fscanf(in, "%d %d %d %d", &c1, &c2, &seat, &spent);
        fclose(in);
        if (fields < 3) seat = 0;   /* no seat number: no bet of the round is ours */
    }
    Deal d;
    read_deal(&d);
    if (d.stage == SHOW_DOWN) return 0;
    int round = d.stage;
    if (round == NO_ROUND) round = d.board_count >= 5 ? RIVER : d.board_count == 4 ? TURN : d.board_count == 3 ? FLOP : PRE_FLOP;

    int highest = 0, mine = seat >= 1 && seat <= MAX_SEATS ? d.bet[round][seat] : 0;
    for (int s = 1; s <= MAX_SEATS; s++) if (d.bet[round][s] > highest) highest = d.bet[round][s];
    int to_call = highest - mine;
    int stack = read_money(seat) - spent;
    int min_raise = round >= TURN ? 2 * BIG_BLIND : BIG_BLIND, previous = 0;
    for (int i = 0; i < d.rise_count[round]; i++) {   /* Rise totals only grow: steps between them are raises */
        int level = d.rise_levels[round][i];
        if (level - previous > min_raise) min_raise = level - previous;
        if (level > previous) previous = level;
    }

    int answer = to_call > 0 ? -10 : 0;
    int monster = 0;   /* A-A pre-flop, a full house or better of its own later */
    if (round == PRE_FLOP) {
        int group = hand_group(c1, c2);
        monster = (c1 - 1) % 13 == 12 && (c2 - 1) % 13 == 12;
        if (group == 1 || (group <= RAISE_GROUP && to_call <= 4 * BIG_BLIND))
            answer = sized_raise(3 * BIG_BLIND + 2 * to_call, min_raise, stack - to_call);
        else if (group <= RAISE_GROUP && to_call * 5 <= stack) answer = 0;            /* call, not re-raise */
        else if (group <= CALL_GROUP && to_call <= 6 * BIG_BLIND && to_call * 10 <= stack) answer = 0;
        else if (group <= DEFEND_GROUP && to_call <= 3 * BIG_BLIND) answer = 0;
    } else {
        int cards[7] = {c1, c2}, n = 2;
        for (int i = 0; i < d.board_count; i++) cards[n++] = d.board[i];
        long mine_score = evaluate(cards, n), board_score = evaluate(d.board, d.board_count);
        int category = category_of(mine_score), board_category = category_of(board_score);
        int top_board = 0;
        for (int i = 0; i < d.board_count; i++) if ((d.board[i] - 1) % 13 > top_board) top_board = (d.board[i] - 1) % 13;
        int r1 = (c1 - 1) % 13, r2 = (c2 - 1) % 13;
        int top_pair = category == 1 && board_category == 0 && (r1 == top_board || r2 == top_board || (r1 == r2 && r1 > top_board));
        /* two pair with the board's pair is one pair of its own; trips or better raise in any war */
        int strong = (category >= 3 && category > board_category) || (category == 2 && board_category == 0);
        int pair_on_paired_board = category == 2 && board_category == 1;
        monster = category >= 6 && category > board_category;
        if (strong && (category >= 3 || d.rise_count[round] <= 1))
            answer = sized_raise(d.pot * 2 / 3, min_raise, stack - to_call);
        else if (strong || ((top_pair || pair_on_paired_board) && 2 * to_call <= d.pot)) answer = 0;
    }
    /* Deep in the deal only a monster raises, or goes on against a bet bigger than the pot before it. */
    if (!monster && answer > 0 && spent + to_call + answer > DEEP) answer = 0;
    if (!monster && answer == 0 && spent + to_call > DEEP && 2 * to_call > d.pot) answer = -10;
    FILE *out = fopen("outputf.txt", "w");
    if (!out) return 1;
    fprintf(out, "%d\n", answer);
    fclose(out);
    return 0;
}

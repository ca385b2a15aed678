/* Monte-Carlo showdowns of heads-up hold'em, compiled: what arena/evaluator/rollouts.py computes with numpy, for
 * the small sample counts of the heads-up judge (Bob's 100 rollouts, RATE queries of a few dozen), where
 * numpy's cost per call outweighs the rollouts themselves.
 *
 * Identical to the numpy path, draw for draw: the uniforms come from the caller's own numpy generator
 * (its bitgen_t, through next_double, in the order Generator.random((samples, unknown)) takes them), each
 * rollout is the same forward Fisher-Yates over the unseen cards, and hands are ranked with the tables
 * of arena.evaluator.batch (handed over once by arena_rollouts_tables, as dense ranks in the same order),
 * so every comparison of two hands is the one few_strengths_from_sums gives.
 *
 * Built on first use with the system's C compiler as a shared library (arena/compiled.py) and called
 * through ctypes (arena/evaluator/kernel.py); the heads-up judge's hand loop
 * (arena/games/headsup/hand_loop.c) is built with it into a library of its own.
 */
#include <stdint.h>
#include <string.h>

#include "rollouts.h"

#define MAX_UNSEEN 52
#define MAX_UNKNOWN 7

static const int32_t *displacements;
static const uint16_t *plain_strengths, *flush_strengths; /* dense ranks: the evaluator's order */
static const int64_t *card_keys;
static int64_t displacement_count, plain_count, flush_count;
static int64_t biased_offset, suit_bits, row_bits, flush_bits, rank_mask, ranks;

/* The evaluator's tables and constants, kept by the caller for the life of the process; the strengths
 * of hands without and with a flush come as dense ranks, which order hands as the strengths do. */
void arena_rollouts_tables(const int32_t *displacement_table, int64_t displacement_size,
                           const uint16_t *strength_table, int64_t strength_size, const uint16_t *flush_table,
                           int64_t flush_size, const int64_t *keys, int64_t offset, int64_t suit_shift,
                           int64_t row_shift, int64_t flush_mask, int64_t ranks_mask, int64_t rank_count) {
    displacements = displacement_table;
    displacement_count = displacement_size;
    plain_strengths = strength_table;
    plain_count = strength_size;
    flush_strengths = flush_table;
    flush_count = flush_size;
    card_keys = keys;
    biased_offset = offset;
    suit_bits = suit_shift;
    row_bits = row_shift;
    flush_bits = flush_mask;
    rank_mask = ranks_mask;
    ranks = rank_count;
}

/* numpy's take(mode="wrap"): an index taken modulo the table's size (valid sums never need it). */
static inline int64_t wrapped(int64_t index, int64_t size) {
    if (index >= 0 && index < size) return index;
    index %= size;
    return index < 0 ? index + size : index;
}

/* The rank of a hand of 5 to 7 cards given by its summed card keys and its 52-bit card mask. */
static inline int strength(int64_t key_sum, int64_t bits) {
    int64_t biased = key_sum + biased_offset;
    int64_t flush = biased & flush_bits;
    if (flush) {
        int suit = __builtin_ctzll((uint64_t)flush) / 4; /* one suit at most holds five of seven cards */
        int64_t mask = (bits >> (ranks * suit)) & rank_mask;
        return flush_strengths[wrapped(mask, flush_count)];
    }
    int64_t row = wrapped(biased >> (suit_bits + row_bits), displacement_count);
    int64_t slot = (biased >> suit_bits) + displacements[row];
    return plain_strengths[wrapped(slot, plain_count)];
}

int arena_hand_rank(int64_t key_sum, int64_t bits) { return strength(key_sum, bits); }

int64_t arena_card_key(int card) { return card_keys[card]; }

/* ``samples`` rollouts over the cards not in ``known`` (a bit per card), each dealing ``unknown`` of them: the opponent's two, then the missing board. The hero's known sums are
 * (hero_key, hero_bits) over hero + board, the board's (board_key, board_bits). Counts wins and ties
 * into counts[0], counts[1]; when ``outcomes`` is not NULL, writes +1/0/-1 per rollout there.
 * Returns 0, or -1 when the shape is impossible. */
int arena_rollouts(bitgen_t *rng, uint64_t known, int unknown, int64_t hero_key,
                   int64_t hero_bits, int64_t board_key, int64_t board_bits, int64_t samples,
                   int64_t *counts, int8_t *outcomes) {
    uint8_t unseen[MAX_UNSEEN], start[MAX_UNSEEN], row[MAX_UNSEEN];
    double scale[MAX_UNKNOWN];
    int size = 0;
    for (int card = 0; card < MAX_UNSEEN; ++card)
        if (!(known >> card & 1)) unseen[size++] = (uint8_t)card;
    if (size < unknown || unknown < 2 || unknown > MAX_UNKNOWN || samples < 0) return -1;
    for (int i = 0; i < size; ++i) start[i] = (uint8_t)i;
    for (int j = 0; j < unknown; ++j) scale[j] = (double)(size - j);
    int64_t wins = 0, ties = 0;
    for (int64_t s = 0; s < samples; ++s) {
        memcpy(row, start, (size_t)size);
        int64_t dealt_key = 0, dealt_bits = 0, board_dealt_key = 0, board_dealt_bits = 0;
        for (int j = 0; j < unknown; ++j) {
            double u = rng->next_double(rng->state);
            int pick = j + (int)(u * scale[j]);
            int card = unseen[row[pick]];
            row[pick] = row[j];
            int64_t key = card_keys[card], bit = (int64_t)1 << card;
            dealt_key += key;
            dealt_bits += bit;
            if (j >= 2) {
                board_dealt_key += key;
                board_dealt_bits += bit;
            }
        }
        int mine = strength(hero_key + board_dealt_key, hero_bits + board_dealt_bits);
        int theirs = strength(board_key + dealt_key, board_bits + dealt_bits);
        wins += mine > theirs;
        ties += mine == theirs;
        if (outcomes) outcomes[s] = (int8_t)((mine > theirs) - (mine < theirs));
    }
    counts[0] = wins;
    counts[1] = ties;
    return 0;
}

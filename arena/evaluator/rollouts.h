/* The rollouts of rollouts.c and numpy's bit generator interface, for the kernels that call them. */
#ifndef ARENA_ROLLOUTS_H
#define ARENA_ROLLOUTS_H

#include <stdint.h>

/* numpy's bit generator interface (numpy/random/bitgen.h), as numpy lays it out. */
typedef struct {
    void *state;
    uint64_t (*next_uint64)(void *st);
    uint32_t (*next_uint32)(void *st);
    double (*next_double)(void *st);
    uint64_t (*next_raw)(void *st);
} bitgen_t;

/* The summed key of a card (arena.evaluator's CARD_KEYS), once arena_rollouts_tables has run. */
int64_t arena_card_key(int card);

/* The rank of the best five of 5 to 7 cards given by their summed keys and 52-bit mask: higher wins. */
int arena_hand_rank(int64_t key_sum, int64_t bits);

int arena_rollouts(bitgen_t *rng, uint64_t known, int unknown, int64_t hero_key, int64_t hero_bits,
                   int64_t board_key, int64_t board_bits, int64_t samples, int64_t *counts, int8_t *outcomes);

#endif

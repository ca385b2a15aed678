/* The heads-up judge's hand loop, compiled: the lines of statement 001's protocol, RATE answers and Bob's
 * rollouts, for hands whose cards and Bob's seeds the caller gives, with nothing crossing into Python
 * between two hands.
 *
 * arena/games/headsup/judge.py is the judge; this is the same loop line for line (the same lines sent,
 * the same replies accepted, the same faults), for the players it can serve: a line it does not read as
 * plain ASCII ``RATE t`` / ``ACTION CHECK|FOLD|RAISE x`` goes to the caller's parse callback (the
 * judge's own parser), and every fault comes back as a code with its numbers for the judge to word. Each
 * finished hand leaves a record of Alice's moves and Bob's answers with his rollout counts, which the
 * caller replays through the rules engine (arena/engines/headsup/__init__.py) for the hand's events, checking the
 * profit. Draws are the judge's: RATE from the match's numpy generator (its bitgen_t), Bob from
 * numpy's default_rng(seed of the hand), rebuilt here (SeedSequence, then PCG64) and checked against
 * numpy by the tests.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rollouts.h"

/* ---- numpy.random.default_rng(seed) for 0 <= seed < 2**64: SeedSequence, then PCG64 ---- */

#define INIT_A 0x43b0d7e5u
#define MULT_A 0x931e8875u
#define INIT_B 0x8b51f9ddu
#define MULT_B 0x58f38dedu
#define MIX_MULT_L 0xca01f9ddu
#define MIX_MULT_R 0x4973f715u
#define XSHIFT 16
#define POOL 4

static uint32_t hashmix(uint32_t value, uint32_t *hash_const) {
    value ^= *hash_const;
    *hash_const *= MULT_A;
    value *= *hash_const;
    value ^= value >> XSHIFT;
    return value;
}

static uint32_t mix(uint32_t x, uint32_t y) {
    uint32_t result = MIX_MULT_L * x - MIX_MULT_R * y;
    result ^= result >> XSHIFT;
    return result;
}

typedef struct {
    unsigned __int128 state, inc;
} pcg64_t;

#define PCG_MULT (((unsigned __int128)2549297995355413924ULL << 64) | 4865540595714422341ULL)

static void pcg64_step(pcg64_t *rng) { rng->state = rng->state * PCG_MULT + rng->inc; }

static uint64_t pcg64_next(void *st) {
    pcg64_t *rng = st;
    pcg64_step(rng);
    uint64_t high = (uint64_t)(rng->state >> 64), low = (uint64_t)rng->state;
    unsigned rotation = (unsigned)(high >> 58);
    uint64_t folded = high ^ low;
    return (folded >> rotation) | (folded << ((-rotation) & 63));
}

static double pcg64_double(void *st) { return (double)(pcg64_next(st) >> 11) * (1.0 / 9007199254740992.0); }

static void default_rng(uint64_t seed, pcg64_t *rng) {
    uint32_t entropy[2], pool[POOL], words = 0, hash_const = INIT_A;
    if (seed == 0) entropy[words++] = 0;
    for (; seed; seed >>= 32) entropy[words++] = (uint32_t)seed;
    for (uint32_t i = 0; i < POOL; ++i) pool[i] = hashmix(i < words ? entropy[i] : 0, &hash_const);
    for (int source = 0; source < POOL; ++source)
        for (int target = 0; target < POOL; ++target)
            if (source != target) pool[target] = mix(pool[target], hashmix(pool[source], &hash_const));
    uint32_t state[2 * POOL];
    hash_const = INIT_B;
    for (int i = 0; i < 2 * POOL; ++i) {
        uint32_t value = pool[i % POOL] ^ hash_const;
        hash_const *= MULT_B;
        value *= hash_const;
        state[i] = value ^ (value >> XSHIFT);
    }
    uint64_t word[POOL];
    for (int i = 0; i < POOL; ++i) word[i] = (uint64_t)state[2 * i] | (uint64_t)state[2 * i + 1] << 32;
    rng->state = 0;
    rng->inc = (((unsigned __int128)word[2] << 64 | word[3]) << 1) | 1;
    pcg64_step(rng);
    rng->state += (unsigned __int128)word[0] << 64 | word[1];
    pcg64_step(rng);
}

/* The first ``count`` doubles of default_rng(seed).random(count): for the tests against numpy. */
void arena_default_rng_doubles(uint64_t seed, int64_t count, double *out) {
    pcg64_t rng;
    default_rng(seed, &rng);
    for (int64_t i = 0; i < count; ++i) out[i] = pcg64_double(&rng);
}

/* ---- the match ---- */

/* FAULT_SYSTEM: a system call of the loop's own failed (errno in fault_value): arena's failure, not the player's */
enum { FAULT_NONE, FAULT_TIMEOUT, FAULT_NO_ANSWER, FAULT_PROTOCOL, FAULT_INVALID_RAISE, FAULT_RATE_BUDGET, FAULT_SIGNAL, FAULT_SYSTEM };
#define INTERRUPTED (-3) /* a signal came: back to Python, whose handler decides (Ctrl-C ends the match) */
enum { REPLY_RATE, REPLY_CHECK, REPLY_FOLD, REPLY_RAISE, REPLY_MALFORMED = -1, REPLY_STOP = -2 };
enum { MOVE_CHECK = 1, MOVE_FOLD, MOVE_RAISE };
enum { BOB_CALL = 1, BOB_FOLD };
#define ROUNDS 4
#define READ_CHUNK 65536

typedef struct {
    int32_t to_player, from_player, player_errors; /* the player's stdin, stdout and stderr */
    int32_t stdin_closed;                          /* in/out: a write found the player's stdin closed */
    int32_t eof;                                   /* out: the player closed its stdout */
    int32_t fault, fault_round;                    /* out: FAULT_*, and the round it happened in */
    int64_t fault_value, fault_limit;              /* out: the raise and Alice's stack, or the RATE count */
    int64_t reply_wait_ns;                         /* the longest one reply may take */
    int64_t output_cap;                            /* more unread stdout than this, with no newline: no answer */
    int64_t rate_budget, rate_used, rate_queries, raises, calls; /* in/out: the match's tallies */
    double think_s;                                /* in/out: wall time spent waiting for replies */
    bitgen_t *rate_rng;                            /* the match's RATE generator */
    int32_t start_stack, dead_pot, bob_rollouts;   /* the rules' numbers (arena/engines/headsup/__init__.py) */
    int32_t board_shown[ROUNDS];
    const char *card_text;                         /* 52 NUL-terminated texts, 8 bytes apart */
    uint8_t *input;                                /* in/out: stdout read and not yet taken as lines */
    int64_t input_cap, input_len;
    uint8_t *errors;                               /* out: the player's stderr (kept while errors_len < errors_keep) */
    int64_t errors_cap, errors_len, errors_keep;
    char *output;                                  /* in/out: lines waiting to be sent */
    int64_t output_cap_bytes, output_len;
    int32_t (*parse)(const uint8_t *line, int64_t length, int64_t *value); /* lines not plain */
    int32_t wake_fd; /* Python's signal wake-up descriptor (signal.set_wakeup_fd), or -1 */
} match_t;

typedef struct {
    int32_t delta, decisions, rate_queries;
    int64_t rate_samples;
    int32_t moves[ROUNDS], amounts[ROUNDS], bob_moves[ROUNDS], bob_wins[ROUNDS], bob_ties[ROUNDS];
} hand_t;

/* Record that a system call of the loop's own failed with ``error`` (the first such failure is kept). */
static void system_failed(match_t *m, int error) {
    if (m->fault != FAULT_SYSTEM) {
        m->fault = FAULT_SYSTEM;
        m->fault_value = error;
    }
}

/* The monotonic clock in ns; INT64_MAX (every deadline past) with FAULT_SYSTEM recorded if it fails. */
static int64_t now_ns(match_t *m) {
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) < 0) {
        system_failed(m, errno);
        return INT64_MAX;
    }
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

__attribute__((format(printf, 2, 3))) static void say(match_t *m, const char *format, ...) {
    va_list args;
    va_start(args, format);
    int64_t room = m->output_cap_bytes - m->output_len;
    int written = vsnprintf(m->output + m->output_len, (size_t)(room > 0 ? room : 0), format, args);
    va_end(args);
    if (written >= 0 && written < room) m->output_len += written;
    else system_failed(m, written < 0 ? errno : ENOBUFS); /* a line never sent would be the player's timeout */
}

/* Poll ``watch`` for at most ``left`` ns, with the wake-up descriptor in its first entry: poll's result,
 * or INTERRUPTED when a signal came (Python's handler wrote a byte there, or poll saw EINTR). Waiting on
 * that descriptor, not on EINTR alone, keeps a signal that lands just before poll from being missed. */
static int wait_for(match_t *m, struct pollfd *watch, int count, int64_t left) {
    watch[0] = (struct pollfd){m->wake_fd, POLLIN, 0};
    int ready = poll(watch, (nfds_t)count, (int)((left + 999999) / 1000000));
    if ((ready < 0 && errno == EINTR) || (ready > 0 && watch[0].revents)) return INTERRUPTED;
    if (ready < 0) system_failed(m, errno);
    return ready;
}

/* Send the waiting lines, waiting no later than ``deadline`` for room in the pipe; 0, -1 past it, or
 * INTERRUPTED. */
static int flush(match_t *m, int64_t deadline) {
    int64_t sent = 0;
    while (sent < m->output_len && !m->stdin_closed) {
        struct pollfd watch[2] = {{-1, 0, 0}, {m->to_player, POLLOUT, 0}};
        int64_t left = deadline - now_ns(m);
        if (left <= 0) return -1;
        int ready = wait_for(m, watch, 2, left);
        if (ready == INTERRUPTED) return INTERRUPTED;
        if (ready < 0) return -1;
        if (ready == 0) continue;
        int64_t part = m->output_len - sent; /* at most PIPE_BUF: poll's room is a free pipe slot, no more */
        ssize_t n = write(m->to_player, m->output + sent, (size_t)(part < PIPE_BUF ? part : PIPE_BUF));
        if (n > 0) sent += n;
        else if (n < 0 && errno == EPIPE) m->stdin_closed = 1; /* it stopped reading */
        else if (n < 0 && errno != EINTR && errno != EAGAIN) {
            system_failed(m, errno);
            return -1;
        }
    }
    m->output_len = 0;
    return 0;
}

static void take_errors(match_t *m) {
    if (m->errors_len + READ_CHUNK > m->errors_cap) { /* kept already: read and drop */
        char scratch[4096];
        ssize_t n = read(m->player_errors, scratch, sizeof scratch);
        if (n == 0) m->player_errors = -1;
        else if (n < 0 && errno != EINTR && errno != EAGAIN) system_failed(m, errno);
        return;
    }
    ssize_t n = read(m->player_errors, m->errors + m->errors_len, READ_CHUNK);
    if (n == 0) m->player_errors = -1; /* closed: stop watching it */
    else if (n > 0 && m->errors_len < m->errors_keep) m->errors_len += n;
    else if (n < 0 && errno != EINTR && errno != EAGAIN) system_failed(m, errno);
}

/* The length of the next line from the player, which starts the input buffer (the caller takes it out
 * with consume), or -1 for none: past the deadline, output closed, or more than output_cap bytes
 * without a newline; INTERRUPTED when a signal came. */
static int64_t next_line(match_t *m, int64_t deadline) {
    for (;;) {
        uint8_t *newline = memchr(m->input, '\n', (size_t)m->input_len);
        if (newline) return newline - m->input;
        if (m->eof || m->input_len > m->output_cap) return -1;
        int64_t left = deadline - now_ns(m);
        if (left <= 0 || m->fault == FAULT_SYSTEM) return -1;
        /* a closed stderr is -1, which poll passes over */
        struct pollfd watch[3] = {{-1, 0, 0}, {m->from_player, POLLIN, 0}, {m->player_errors, POLLIN, 0}};
        int ready = wait_for(m, watch, 3, left);
        if (ready == INTERRUPTED) return INTERRUPTED;
        if (ready < 0) return -1;
        if (ready == 0) continue;
        if (watch[1].revents) {
            if (m->input_cap - m->input_len < READ_CHUNK) { /* cannot happen: input_cap > output_cap + chunk */
                m->eof = 1;
                continue;
            }
            ssize_t n = read(m->from_player, m->input + m->input_len, READ_CHUNK);
            if (n == 0) m->eof = 1;
            else if (n > 0) m->input_len += n;
            else if (errno != EINTR && errno != EAGAIN) {
                system_failed(m, errno);
                return -1;
            }
        }
        if (m->player_errors >= 0 && watch[2].revents) take_errors(m);
    }
}

/* Take the first ``length`` bytes and the newline after them out of the input buffer. */
static void consume(match_t *m, int64_t length) {
    memmove(m->input, m->input + length + 1, (size_t)(m->input_len - length - 1));
    m->input_len -= length + 1;
}

/* ``digits`` (1..12 ASCII digits, after an optional '-' when ``sign``) as a number; -1 when not. */
static int plain_number(const uint8_t *text, int64_t length, int sign, int64_t *value) {
    int negative = sign && length > 0 && text[0] == '-';
    int64_t start = negative, result = 0;
    if (length > 12 || length - start < 1) return -1;
    for (int64_t i = start; i < length; ++i) {
        if (text[i] < '0' || text[i] > '9') return -1;
        result = result * 10 + (text[i] - '0');
    }
    *value = negative ? -result : result;
    return 0;
}

/* A reply in its plain form (single spaces, ASCII, any trailing '\r' dropped), or REPLY_MALFORMED. */
static int plain_reply(const uint8_t *line, int64_t length, int64_t *value) {
    while (length > 0 && line[length - 1] == '\r') --length;
    *value = 0;
    if (length > 5 && !memcmp(line, "RATE ", 5))
        return plain_number(line + 5, length - 5, 0, value) == 0 && *value >= 1 ? REPLY_RATE : REPLY_MALFORMED;
    if (length == 12 && !memcmp(line, "ACTION CHECK", 12)) return REPLY_CHECK;
    if (length == 11 && !memcmp(line, "ACTION FOLD", 11)) return REPLY_FOLD;
    if (length > 13 && !memcmp(line, "ACTION RAISE ", 13))
        return plain_number(line + 13, length - 13, 1, value) == 0 ? REPLY_RAISE : REPLY_MALFORMED;
    return REPLY_MALFORMED;
}

typedef int32_t (*parse_fn)(const uint8_t *line, int64_t length, int64_t *value);

/* A line's REPLY_* kind and value: its plain form, else what the judge's parser ``parse`` says (REPLY_STOP
 * for an answer out of range). The loop reads every reply so; exported for the tests, which fuzz it
 * against the judge's Python loop. */
int32_t arena_headsup_read_reply(parse_fn parse, const uint8_t *line, int64_t length, int64_t *value) {
    int kind = plain_reply(line, length, value);
    if (kind == REPLY_MALFORMED) kind = parse(line, length, value);
    return kind < REPLY_STOP || kind > REPLY_RAISE ? REPLY_STOP : kind;
}

/* Flush, then wait for one reply and read it: a REPLY_* kind, or -1 with m->fault set. */
static int reply(match_t *m, int round, int64_t *value) {
    int64_t start = now_ns(m);
    if (m->fault == FAULT_SYSTEM) { /* a line could not be queued, or no clock */
        m->fault_round = round;
        return -1;
    }
    int64_t deadline = start + m->reply_wait_ns;
    int flushed = flush(m, deadline);
    int64_t length = flushed == 0 ? next_line(m, deadline) : flushed;
    int64_t waited = now_ns(m) - start;
    if (m->fault == FAULT_SYSTEM) {
        m->fault_round = round;
        return -1;
    }
    m->think_s += (double)waited / 1e9;
    if (length == INTERRUPTED) {
        m->fault = FAULT_SIGNAL;
        m->fault_round = round;
        return -1;
    }
    if (length < 0) {
        m->fault = waited >= m->reply_wait_ns ? FAULT_TIMEOUT : FAULT_NO_ANSWER;
        m->fault_round = round;
        return -1;
    }
    int kind = arena_headsup_read_reply(m->parse, m->input, length, value);
    consume(m, length);
    if (kind == REPLY_STOP) { /* the parser raised (a signal's handler, say): Python raises it again */
        m->fault = FAULT_SIGNAL;
        m->fault_round = round;
        return -1;
    }
    if (kind == REPLY_MALFORMED) {
        m->fault = FAULT_PROTOCOL;
        m->fault_round = round;
        return -1;
    }
    return kind;
}

static void known_sums(const uint8_t *hole, const uint8_t *board, int shown, int64_t sums[4], uint64_t *mask) {
    int64_t board_key = 0, board_bits = 0;
    for (int i = 0; i < shown; ++i) {
        board_key += arena_card_key(board[i]);
        board_bits += (int64_t)1 << board[i];
    }
    sums[0] = board_key + arena_card_key(hole[0]) + arena_card_key(hole[1]);
    sums[1] = board_bits + ((int64_t)1 << hole[0]) + ((int64_t)1 << hole[1]);
    sums[2] = board_key;
    sums[3] = board_bits;
    *mask = (uint64_t)sums[1];
}

static void rollouts(bitgen_t *rng, const uint8_t *hole, const uint8_t *board, int shown, int64_t samples,
                     int64_t counts[2]) {
    int64_t sums[4];
    uint64_t known;
    known_sums(hole, board, shown, sums, &known);
    arena_rollouts(rng, known, 2 + 5 - shown, sums[0], sums[1], sums[2], sums[3], samples, counts, NULL);
}

static int rank7(const uint8_t *hole, const uint8_t *board) {
    int64_t key = arena_card_key(hole[0]) + arena_card_key(hole[1]), bits = 0;
    bits = ((int64_t)1 << hole[0]) + ((int64_t)1 << hole[1]);
    for (int i = 0; i < 5; ++i) {
        key += arena_card_key(board[i]);
        bits += (int64_t)1 << board[i];
    }
    return arena_hand_rank(key, bits);
}

static void say_state(match_t *m, int hand, int round, int alice, int bob, int pot, const uint8_t *cards) {
    int shown = m->board_shown[round - 1];
    say(m, "STATE %d %d %d %d %d %d\nALICE %s %s\nBOARD", hand, round, alice, bob, pot, shown,
        m->card_text + 8 * cards[0], m->card_text + 8 * cards[1]);
    for (int i = 0; i < shown; ++i) say(m, " %s", m->card_text + 8 * cards[4 + i]);
    say(m, "\n");
}

/* Play one hand; its profit, or -1000 with m->fault set. */
static int play_hand(match_t *m, int hand, const uint8_t *cards, uint64_t bob_seed, hand_t *record) {
    const uint8_t *alice_hole = cards, *bob_hole = cards + 2, *board = cards + 4;
    int start = m->start_stack, round = 1, alice = start, bob = start, pot = m->dead_pot, final;
    pcg64_t bob_state;
    bitgen_t bob_rng = {&bob_state, pcg64_next, NULL, pcg64_double, pcg64_next};
    int bob_seeded = 0;
    memset(record, 0, sizeof *record);
    for (;;) {
        say_state(m, hand, round, alice, bob, pot, cards);
        int shown = m->board_shown[round - 1], kind;
        int64_t value;
        while ((kind = reply(m, round, &value)) == REPLY_RATE) {
            if (m->rate_used + value > m->rate_budget) {
                m->fault = FAULT_RATE_BUDGET;
                m->fault_round = round;
                m->fault_value = value;
                return -1000;
            }
            m->rate_used += value;
            m->rate_queries += 1;
            record->rate_queries += 1;
            record->rate_samples += value;
            int64_t counts[2];
            rollouts(m->rate_rng, alice_hole, board, shown, value, counts);
            say(m, "RATES %.6f %.6f\n", (double)counts[0] / (double)value, (double)counts[1] / (double)value);
        }
        if (kind < 0) return -1000;
        int decision = record->decisions++;
        record->amounts[decision] = kind == REPLY_RAISE ? (int32_t)value : 0;
        if (kind == REPLY_CHECK) {
            record->moves[decision] = MOVE_CHECK;
            say(m, "OPP CHECK\n");
        } else if (kind == REPLY_FOLD) {
            record->moves[decision] = MOVE_FOLD;
            final = alice;
            break;
        } else {
            if (value < 1 || value > alice) {
                m->fault = FAULT_INVALID_RAISE;
                m->fault_round = round;
                m->fault_value = value;
                m->fault_limit = alice;
                return -1000;
            }
            record->moves[decision] = MOVE_RAISE;
            if (!bob_seeded) {
                default_rng(bob_seed, &bob_state);
                bob_seeded = 1;
            }
            int64_t counts[2];
            rollouts(&bob_rng, bob_hole, board, shown, m->bob_rollouts, counts);
            int64_t wins = counts[0], ties = counts[1], losses = m->bob_rollouts - wins - ties;
            int64_t final_pot = pot + 2 * value, after_call = bob - value - start;
            int64_t total = wins * (after_call + final_pot) + ties * (after_call + final_pot / 2) + losses * after_call;
            int calls = (double)total / (double)m->bob_rollouts > (double)(bob - start);
            record->bob_wins[decision] = (int32_t)wins;
            record->bob_ties[decision] = (int32_t)ties;
            m->raises += 1;
            if (!calls) {
                record->bob_moves[decision] = BOB_FOLD;
                say(m, "OPP FOLD\n");
                final = alice + pot;
                break;
            }
            record->bob_moves[decision] = BOB_CALL;
            m->calls += 1;
            alice -= (int)value;
            bob -= (int)value;
            pot += 2 * (int)value;
            say(m, "OPP CALL %d\n", (int)value);
        }
        if (round < ROUNDS) {
            round += 1;
            continue;
        }
        int mine = rank7(alice_hole, board), theirs = rank7(bob_hole, board);
        final = alice + (mine > theirs ? pot : mine == theirs ? pot / 2 : 0);
        break;
    }
    record->delta = final - start;
    say(m, "RESULT %d\n", record->delta);
    return record->delta;
}

/* Play hands first_hand .. first_hand + count - 1 (cards: 9 per hand, Alice's two, Bob's two, the board;
 * bob_seeds: one per hand). Returns the number of hands finished; a fault stops the loop with m->fault
 * set (the faulted hand not counted). Lines still to be sent stay in m->output. */
int32_t arena_headsup_hands(match_t *m, int32_t first_hand, int32_t count, const uint8_t *cards,
                            const uint64_t *bob_seeds, hand_t *records) {
    m->fault = FAULT_NONE;
    for (int32_t h = 0; h < count; ++h)
        if (play_hand(m, first_hand + h, cards + 9 * h, bob_seeds[h], records + h) == -1000) return h;
    return count;
}

// texas.h: the heads-up texas.h interface, as arena provides it.
//
// A texas.h player defines makeDecision and may call getResult and getRatesBySampling. arena
// compiles it with this header and texas_driver.cpp, which speaks the heads-up line protocol to the
// judge: getRatesBySampling on the current state becomes a RATE query (it counts against the match's
// RATE budget); getResult is computed locally.
#ifndef ARENA_TEXAS_H
#define ARENA_TEXAS_H

#include <utility>

struct Card {
    int color, value;
    Card() : color(-1), value(-1) {}
    Card(int _color, int _value) : color(_color), value(_value) {}
};

struct State {
    Card alice[2], bob[2];
    Card community[5];
};

enum class ActionType { CHECK, CALL, RAISE, FOLD };

// Written by the player: the decision for the state Alice sees (Bob's cards and unrevealed
// community cards are (-1, -1)). Return (CHECK, 0), (RAISE, x) with 1 <= x <= Alice's stack, or (FOLD, 0).
std::pair<ActionType, int> makeDecision(const State& s);

// 1, 0 or -1: Alice's best five of seven beats, ties or loses to Bob's (all nine cards known).
int getResult(const State& s);

// (win, tie) frequencies over t random completions of the unknown cards of s.
std::pair<double, double> getRatesBySampling(const State& s, int t);

#endif

"""TwoCardDraw best-response player (line protocol): the upper bound for a strategy it is given.

Run by ``arena twocard play bots/twocard/best_response.py --give-strategy ...``: the judge copies the
test case's server strategy into the working folder as ``strategy.txt``. The player computes, in
plain Python, the exact best response by backward induction over the public history (the server's
hand belief depends only on it, since cards are independent), then answers each call line with the
best choice. ``python3 best_response.py --value FILE`` prints the exact value of FILE instead.
"""

import sys

HANDS = [(a, b) for a in range(5) for b in range(a, 5)]
INDEX = {h: i for i, h in enumerate(HANDS)}
PRIOR = [(1.0 if a == b else 2.0) / 25 for a, b in HANDS]


def key(hand):
    return (1 if hand[0] == hand[1] else 0, hand[1], hand[0])


CMP = [[(key(h) > key(s)) - (key(h) < key(s)) for s in HANDS] for h in HANDS]
DRAW = [[[0.0] * 15 for _ in range(15)] for _ in range(3)]
for _i, (_lo, _hi) in enumerate(HANDS):
    DRAW[0][_i][_i] = 1.0
    for _c in range(5):
        DRAW[1][_i][INDEX[(min(_hi, _c), max(_hi, _c))]] += 0.2
    DRAW[2][_i] = list(PRIOR)
# outcome of a first round: (bets, who bet first: 0 you/nobody, 1 server)
OUTCOMES = [(0, 0), (1, 0), (1, 1), (2, 0), (2, 1), (3, 0), (3, 1)]


def read_strategy(path):
    with open(path) as f:
        lines = [line.split() for line in f if line.strip()]
    bet1, bet2 = int(lines[0][0]), int(lines[0][1])
    table = {}
    for fields in lines[1:]:
        ints = tuple(int(x) for x in fields[1:-3])
        probs = [float(x) for x in fields[-3:]]
        hand = INDEX[(ints[0], ints[1])]
        table[(fields[0], hand) + ints[2:]] = probs
    return bet1, bet2, table


def scale(w, probs, a):
    return [w[s] * probs[s][a] for s in range(15)]


def showdown(w, stake):
    return [stake * sum(CMP[h][s] * w[s] for s in range(15)) for h in range(15)]


def best(options):
    """Per hand, the best option's value and index."""
    values, choices = [], []
    for h in range(15):
        column = [o[h] for o in options]
        i = max(range(len(column)), key=column.__getitem__)
        values.append(column[i])
        choices.append(i)
    return values, choices


def betting(w, probs, base, bet, terminal):
    """One round: probs(k) -> server distributions per hand facing k bets; terminal(bets, first, w)."""
    p = [probs(k) for k in range(4)]

    def fold_value(stake, weights):
        return [stake * sum(weights)] * 15

    def add(*vectors):
        return [sum(v[h] for v in vectors) for h in range(15)]

    plan = {}
    a1 = scale(w, p[0], 2)
    a2 = scale(w, p[1], 2)
    a3 = scale(a1, p[2], 2)
    v3, plan[3] = best([fold_value(-(base + 2 * bet), a3), terminal(3, 1, a3)])
    s2 = add(fold_value(base + bet, scale(a1, p[2], 0)), terminal(2, 1, scale(a1, p[2], 1)), v3)
    v1, plan[1] = best([fold_value(-base, a1), terminal(1, 1, a1), s2])
    s0 = add(terminal(0, 0, scale(w, p[0], 1)), v1)
    s3 = add(fold_value(base + 2 * bet, scale(a2, p[3], 0)), terminal(3, 0, scale(a2, p[3], 1)))
    v2, plan[2] = best([fold_value(-(base + bet), a2), terminal(2, 0, a2), s3])
    s1 = add(fold_value(base, scale(w, p[1], 0)), terminal(1, 0, scale(w, p[1], 1)), v2)
    value, plan[0] = best([s0, s1])
    return value, plan


def solve(bet1, bet2, table):
    """Your value per hand and the plan: plan[('r1',)], plan[('draw', o)], plan[('r2', o, d1, d2)]."""
    plans = {}

    def draw_stage(bets1, first, w):
        o = (bets1, first)
        base = 1 + bets1 * bet1
        options = []
        for d1 in range(3):
            per_hand_after = [0.0] * 15
            for d2 in range(3):
                w2 = [0.0] * 15
                for s in range(15):
                    q = w[s] * table[("DRAW", s, bets1, first, d1)][d2]
                    if q:
                        for t in range(15):
                            w2[t] += q * DRAW[d2][s][t]

                def probs(k, d1=d1, d2=d2):
                    return [table[("ROUND2", s, bets1, k, first, d1, d2)] for s in range(15)]

                def terminal(bets2, first2, weights):
                    return showdown(weights, base + bets2 * bet2)

                values, plans[("r2", o, d1, d2)] = betting(w2, probs, base, bet2, terminal)
                per_hand_after = [x + y for x, y in zip(per_hand_after, values)]
            options.append([sum(DRAW[d1][h][k] * per_hand_after[k] for k in range(15)) for h in range(15)])
        values, plans[("draw", o)] = best(options)
        return values

    def probs1(k):
        return [table[("ROUND1", s, k)] for s in range(15)]

    values, plans[("r1",)] = betting(PRIOR, probs1, 1, bet1, draw_stage)
    return sum(PRIOR[h] * values[h] for h in range(15)), plans


class Player:
    def __init__(self, plans):
        self.plans = plans
        self.opened = 0
        self.outcome = (0, 0)
        self.drew = 0

    def answer(self, name, a):
        if name == "new_hand":
            self.opened = self.plans[("r1",)][0][INDEX[(a[0], a[1])]]
            return self.opened
        if name == "round1":
            return self.plans[("r1",)][a[2]][INDEX[(a[0], a[1])]]
        if name == "draw":
            bets = a[2]
            self.outcome = (bets, 1 if self.opened == 0 and bets > 0 else 0)
            self.drew = self.plans[("draw", self.outcome)][INDEX[(a[0], a[1])]]
            return self.drew
        if name == "round2":
            plan = self.plans[("r2", self.outcome, self.drew, a[4])]
            choice = plan[a[3]][INDEX[(a[0], a[1])]]
            return choice + 1 if a[3] == 0 else choice
        return 0


def main(argv):
    if len(argv) == 3 and argv[1] == "--value":
        value, _ = solve(*read_strategy(argv[2]))
        print("%.12f" % -value)
        return 0
    _, plans = solve(*read_strategy("strategy.txt"))
    player = Player(plans)
    for line in sys.stdin:
        fields = line.split()
        if fields:
            print(player.answer(fields[0], [int(x) for x in fields[1:]]), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

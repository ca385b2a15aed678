"""Issue 13's attack: find the table's seed from its own hole cards, then read every opponent's cards.

It tries the derivation docs/tournament.md gives for --seed: a table seed S (arena table --seed S) or a
tournament seed S with table n or the final; deal N deals shuffled_deck(derive_seed(seed, "deal", N)),
one card each from the seat left of the dealer among seats with chips, twice round. Once a seed fits, it
is kept in seed.txt. Every deal it writes its guess of each opponent's two cards to guesses.txt (a random
guess when no seed fits) and answers call.
"""
import hashlib
import os
import random


def derive_seed(*parts):
    text = "/".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


def deck_of(seed, deal):
    deck = list(range(52))
    random.Random(derive_seed(seed, "deal", deal)).shuffle(deck)
    return deck


def candidates():
    for s in range(1000):
        yield s
    for s in range(100):
        yield derive_seed(s, "final")
        for n in range(1, 21):
            yield derive_seed(s, "table", n)


def holes(deck, dealer, stacks):
    dealt = [seat for seat, chips in enumerate(stacks, 1) if chips]
    split = dealt.index(dealer) + 1
    order = dealt[split:] + dealt[:split]
    return {seat: {deck[i], deck[i + len(order)]} for i, seat in enumerate(order)}


def main():
    stage = dealer = None
    for line in open("deal.txt"):
        words = line.split()
        if words and words[0] == "Stage":
            stage = words[1]
        if words and words[0] == "Dealer":
            dealer = int(words[1])
    out = open("outputf.txt", "w")
    out.write("0\n")
    out.close()
    if stage == "Show_Down":
        return
    c1, c2, me, _spent = (int(x) for x in open("inputf.txt").read().split())
    mine = {c1 - 1, c2 - 1}
    money = open("deals_money.txt").read().split()
    deal = int(money[1])
    stacks = [int(money[i]) for i in range(3, len(money), 2)]
    done = open("guesses.txt").read().split("\n") if os.path.exists("guesses.txt") else []
    if any(line.startswith(f"{deal} ") for line in done):
        return
    seed = int(open("seed.txt").read()) if os.path.exists("seed.txt") else None
    if seed is None or holes(deck_of(seed, deal), dealer, stacks)[me] != mine:
        seed = next((s for s in candidates() if holes(deck_of(s, deal), dealer, stacks)[me] == mine), None)
        if seed is not None:
            open("seed.txt", "w").write(str(seed))
    if seed is not None:
        known = holes(deck_of(seed, deal), dealer, stacks)
    else:
        rest = [c for c in range(52) if c not in mine]
        random.shuffle(rest)
        known = {s: {rest[2 * i], rest[2 * i + 1]} for i, s in enumerate(range(1, len(stacks) + 1))}
    with open("guesses.txt", "a") as log:
        for seat, cards in sorted(known.items()):
            if seat != me and stacks[seat - 1]:
                log.write(f"{deal} {seat} {' '.join(str(c) for c in sorted(cards))}\n")


main()

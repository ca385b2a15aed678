"""Keeps what each seat has put in in a five-slot list: fine in seats 1 to 5, an IndexError in seat 6."""

with open("inputf.txt") as handle:
    card1, card2, seat, spent = (int(word) for word in handle.read().split())
put_in = [0] * 5
put_in[seat - 1] = spent
with open("outputf.txt", "w") as out:
    out.write("0\n")

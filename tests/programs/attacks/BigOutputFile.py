"""Issue 24: writes 15 MB of blanks to outputf.txt, then an answer after them."""

with open("outputf.txt", "w") as out:
    out.write(" " * (15 << 20) + "\n0\n")

# Always raises by 1, below the minimum raise (played as a call, recorded as a fault).
with open("outputf.txt", "w") as out:
    out.write("1\n")

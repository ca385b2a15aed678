# Nondeterministic on purpose: raises by a random amount each time (tests arena check --repeat).
import random

with open("outputf.txt", "w") as out:
    out.write(f"{random.randrange(10, 10**9)}\n")

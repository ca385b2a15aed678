"""Reshapes its help files at random every decision (seeded by inputf.txt): files of random sizes, folders
nested up to four deep, removals; sometimes more files, bytes or depth than the rules allow. Answers 0."""
import os
import random

rng = random.Random(open("inputf.txt").read())
for _ in range(rng.randint(0, 6)):
    depth = rng.randint(0, 3 if rng.random() < 0.9 else 9)
    folder = "/".join(f"d{rng.randint(0, 2)}" for _ in range(depth))
    if folder:
        os.makedirs(folder, exist_ok=True)
    name = os.path.join(folder, f"f{rng.randint(0, 6)}")
    if rng.random() < 0.3 and os.path.isfile(name):
        os.unlink(name)
    elif not os.path.isdir(name):
        with open(name, "wb") as out:
            out.write(b"x" * rng.choice([0, 10, 4096, 1 << 20, 6 << 20]))
open("outputf.txt", "w").write("0\n")

"""Changes a few of its help files every decision (seeded by inputf.txt), in ways a snapshot must see: other
bytes of the same size written in place with the old times put back, appends, removals, a file turned into a
folder and back, new files; the others are left alone. Answers 0."""
import os
import random

rng = random.Random(open("inputf.txt").read())
os.makedirs("sub", exist_ok=True)
for _ in range(rng.randint(0, 2)):
    name = rng.choice(["h0", "h1", "h2", "h3", "h4", "sub/h0", "sub/h1", "sub/h2"])
    roll = rng.random()
    if os.path.isdir(name):
        os.rmdir(name)
    elif not os.path.exists(name):
        with open(name, "wb") as out:
            out.write(rng.randbytes(rng.randint(1, 64)))
    elif roll < 0.5:
        before = os.stat(name)
        with open(name, "r+b") as out:
            out.write(rng.randbytes(before.st_size))
        os.utime(name, ns=(before.st_atime_ns, before.st_mtime_ns))
    elif roll < 0.7:
        with open(name, "ab") as out:
            out.write(b"+")
    elif roll < 0.85:
        os.unlink(name)
    else:
        os.unlink(name)
        os.mkdir(name)
open("outputf.txt", "w").write("0\n")

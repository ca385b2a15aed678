"""Replaces outputf.txt with a symlink to the file named in inputf.txt, then writes through it."""
import os

target = open("inputf.txt").read().split()[0]
for attempt in (lambda: os.unlink("outputf.txt"), lambda: os.rename("link.tmp", "outputf.txt")):
    try:
        if not os.path.lexists("link.tmp"):
            os.symlink(target, "link.tmp")
        attempt()
    except OSError:
        pass
try:
    os.symlink(target, "outputf.txt")
except OSError:
    pass
with open("outputf.txt", "w") as answer:
    answer.write("destroyed\n")

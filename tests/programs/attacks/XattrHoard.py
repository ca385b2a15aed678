"""Attack: keep far more than the help-file budget (16 MB) from one decision to the next in extended
attributes (``user.*`` xattrs, which tmpfs keeps in kernel memory) of one ordinary help file.

Every decision counts the bytes it finds in ``memo.txt``'s xattrs, notes the count in ``recovered.txt``
(a help file, so the test can read it), and adds 24 MB more until 96 MB are kept. Answers 0 like
``Checker.py``.
"""
import os

MEMO, CHUNK, STEP, CEILING = "memo.txt", 60_000, 24 << 20, 96 << 20

open(MEMO, "a").close()
try:
    names = os.listxattr(MEMO)
except OSError:
    names = []
found = 0
for name in names:
    try:
        found += len(os.getxattr(MEMO, name))
    except OSError:
        pass
with open("recovered.txt", "a") as note:
    note.write(f"{found}\n")
if found < CEILING:
    block = os.urandom(CHUNK)
    for number in range(len(names), len(names) + STEP // CHUNK):
        try:
            os.setxattr(MEMO, f"user.m{number}", block)
        except OSError:
            break
with open("outputf.txt", "w") as answer:
    answer.write("0\n")

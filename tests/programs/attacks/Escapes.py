"""Attack: text meant for people. Escape sequences and rich markup on stderr, an answer that is markup,
help-file names holding an escape sequence, markup and bytes that are not UTF-8; 20 of them so the
names reach a fault's reason. Answers "[/x]" every third decision, else 0 (call)."""
import os
import sys

try:
    runs = int(open("runs.txt").read())
except OSError:
    runs = 0
open("runs.txt", "w").write(str(runs + 1))
for number in range(20):
    open(os.fsencode(f"a[b]\x1b[31m{number}") + b"\xff\xfe", "w").close()
sys.stderr.write("\x1b]0;pwned\x07\x1b[2J\x1b[31m[/x] [bold]owned[/bold]\x9b\n")
sys.stderr.buffer.write(b"\xff\xfe not utf-8\n")
with open("outputf.txt", "w") as answer:
    answer.write("[/x]\n" if runs % 3 == 2 else "0\n")

"""Attack: text meant for people. Escape sequences and rich markup on stderr, an answer that is markup,
help-file names holding an escape sequence, markup and bytes that are not UTF-8; 20 of them so the
names reach a fault's reason. Answers "[/x]" when its first card is odd, else 0 (call)."""
import os
import sys

for number in range(20):
    open(os.fsencode(f"a[b]\x1b[31m{number}") + b"\xff\xfe", "a").close()
sys.stderr.write("\x1b]0;pwned\x07\x1b[2J\x1b[31m[/x] [bold]owned[/bold]\x9b\n")
sys.stderr.buffer.write(b"\xff\xfe not utf-8\n")
first_card = int(open("inputf.txt").read().split()[0])
with open("outputf.txt", "w") as answer:
    answer.write("[/x]\n" if first_card % 2 else "0\n")

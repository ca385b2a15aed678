"""Heads-up red team: a reply with a NUL byte and undecodable bytes inside, after clean hands.

``ACTION CHECK\\0`` passes a C ``strcmp`` that stops at the NUL; the judge must read the whole line and
call it malformed, with the bytes shown escaped.
"""

import sys

out = sys.stdout.buffer
for line in sys.stdin.buffer:
    if line.startswith(b"STATE"):
        number = int(line.split()[1])
    if line.startswith(b"BOARD"):
        if number == 4:
            out.write(b"ACTION CHECK\0\xff\x1b[31m\n")
        else:
            out.write(b"ACTION CHECK\n")
        out.flush()

"""Heads-up red team: answers the whole match before reading one question, then stops reading.

Every reply (``ACTION CHECK``) is written up front, some split across writes byte by byte, one with a
CRLF; then the program closes its stdin and waits on stdout's pipe to drain. A judge that reads only what
follows its question, or that blocks writing to a player that no longer reads, would hang or misjudge.
"""

import os
import sys

HANDS = int(sys.argv[1]) if len(sys.argv) > 1 else 120
out = sys.stdout.buffer
lines = [b"ACTION CHECK\r\n" if n % 7 == 0 else b"ACTION CHECK\n" for n in range(HANDS * 4)]
for n, line in enumerate(lines):
    if n % 5 == 0:
        for byte in line:
            out.write(bytes([byte]))
            out.flush()
    else:
        out.write(line)
out.flush()
os.close(0)  # the judge's questions now meet a closed pipe
sys.stdout.close()

"""Issue 24: looks for what earlier warm decisions printed in its own memory (forked from the fork server),
and for flags an earlier decision left on its stdin's open file description; then leaves its own traces.

It prints (on stdout, which the transport hands back) one line of a fresh random token, the tokens of
earlier decisions it found in its memory, and the status flags of descriptor 0 as it found them.
"""

import fcntl
import os
import re
import secrets

MARK = b"WARM" + b"TRACE-"  # never whole in this source: only a printed token holds it
TOKEN = re.compile(re.escape(MARK) + rb"[0-9a-f]{32}")


def found_in_memory() -> set[bytes]:
    found: set[bytes] = set()
    with open("/proc/self/maps") as maps, open("/proc/self/mem", "rb", buffering=0) as mem:
        for line in maps:
            fields = line.split()
            if not fields[1].startswith("rw"):
                continue
            start, end = (int(x, 16) for x in fields[0].split("-"))
            try:
                data = os.pread(mem.fileno(), end - start, start)
            except OSError:
                continue
            found.update(TOKEN.findall(data))
    return found


flags = fcntl.fcntl(0, fcntl.F_GETFL)
found = found_in_memory()
mine = MARK + secrets.token_hex(16).encode()
fcntl.fcntl(0, fcntl.F_SETFL, flags | os.O_NONBLOCK | os.O_APPEND)
print(f"token {mine.decode()}")
print("found " + " ".join(sorted(token.decode() for token in found if token != mine)))
print(f"flags {flags}")
with open(os.devnull, "w") as quiet:
    print(mine.decode() * 64, file=quiet)
os.write(2, mine * 4)  # stderr too
with open("outputf.txt", "w") as out:
    out.write("0\n")

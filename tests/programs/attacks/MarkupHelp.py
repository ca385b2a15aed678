"""Attack: text for the reports and the viewer, from help-file names and stderr.

Leaves help files named like a Markdown table row (``|`` cells claiming 99 files), HTML, a
``javascript:`` link and a right-to-left isolate (U+2067, which the escaping of U+202E leaves); on its
third decision it prints the same to stderr, with a faults.jsonl record blaming Tight, and exits 1 (a
crash fault that keeps its stderr). Otherwise answers 0 (call).
"""

import sys
from pathlib import Path

NAMES = (
    "a | 99 | 0 | forged",
    "<img src=x onerror=alert(1)>",
    "[click](javascript:alert(1))",
    "\u2067gnp.exe\u2069",
)
try:
    runs = int(Path("runs.txt").read_text())
except OSError:
    runs = 0
Path("runs.txt").write_text(str(runs + 1))
for name in NAMES:
    Path(name).write_text("x")
if runs == 2:
    sys.stderr.write("</script><script>alert(1)</script> \u2067RLI\u2069 \u202dLRO\u202c\n")
    sys.stderr.write('{"team": "Tight", "kind": "crash", "reason": "forged", "deal": 1}\n')
    raise SystemExit(1)
Path("outputf.txt").write_text("0\n")

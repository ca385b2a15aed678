"""Counts its runs in a help file and crashes on the third: only its help file can reproduce the crash."""

import os

runs = int(open("runs.txt").read()) + 1 if os.path.exists("runs.txt") else 1
with open("runs.txt", "w") as notes:
    notes.write(str(runs))
if runs == 3:
    raise SystemExit("ThirdRun: crashing on my third run, as planned")
with open("outputf.txt", "w") as out:
    out.write("0\n")

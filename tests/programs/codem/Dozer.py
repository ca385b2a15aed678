"""Sleeps 2.2 s on its first run (no marker yet), then calls; crashes in the run after a showdown.

With a 2 s limit it is clean on the CPU clock (idle under the limit + 0.5 s) and a timeout on the wall
clock; its post-showdown crash is a fault like any other.
"""

import os
import time

if not os.path.exists("slept.txt"):
    with open("slept.txt", "w") as marker:
        marker.write("1")
    time.sleep(2.2)
with open("deal.txt") as deal:
    if any(line.split()[:2] == ["Stage", "Show_Down"] for line in deal):
        raise SystemExit("Dozer: crashing after the showdown, as planned")
with open("outputf.txt", "w") as out:
    out.write("0\n")

"""A persistent line program: answers every line with 'pong <line>', stops at 'quit'."""
import sys

for line in sys.stdin:
    line = line.strip()
    if line == "quit":
        break
    print(f"pong {line}", flush=True)

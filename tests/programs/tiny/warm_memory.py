"""Reads its inputs, keeps help files, uses numpy and random, and checks it starts fresh every time."""
import json
import os
import random
import sys

import numpy

state = json.__dict__.setdefault("decisions_seen_by_this_process", 0) + 1
json.decisions_seen_by_this_process = state
values = [int(word) for word in open("inputf.txt").read().split()]
os.makedirs("memory", exist_ok=True)
try:
    history = json.load(open("memory/history.json"))
except OSError:
    history = []
history.append(sum(values))
json.dump(history, open("memory/history.json", "w"))
with open("memory/last.txt", "w") as last:
    last.write(f"{numpy.int64(sum(history)) * 2} {sys.argv} {__name__} {state}\n")
draw = random.random()
open("randoms.txt", "a").write(f"{draw:.17f}\n")
print("decision", len(history))
with open("outputf.txt", "w") as answer:
    answer.write(f"{int(numpy.sum(numpy.array(values)))} {state} {len(history)}\n")
with open("memory/identity.txt", "w") as identity:
    identity.write(f"{sys.argv} {__file__} {__spec__} {type(__loader__).__name__} {__name__} {__package__} "
                   f"{type(__builtins__).__name__} {sys.path[0]} {sys.flags} {__doc__[:20]}\n")

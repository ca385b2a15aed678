"""Attack: stop arena's Python fork server (SIGSTOP to the parent of a warm decision), then answer 0.

A stopped server never replies: the table must not hang, no stopped process may remain, and the
decision's answer must still count (or the attacker gets a fault), never the table's end.
"""
import os
import signal

with open("outputf.txt", "w") as answer:
    answer.write("0\n")
if os.getppid() != 1:
    os.kill(os.getppid(), signal.SIGSTOP)

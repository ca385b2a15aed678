"""Keeps two help files (one in a sub-folder), counts its runs in one of them, answers the count."""
import os

os.makedirs("notes", exist_ok=True)
try:
    runs = int(open("notes/runs.txt").read())
except OSError:
    runs = 0
runs += 1
with open("notes/runs.txt", "w") as note:
    note.write(str(runs))
with open("last_input.txt", "w") as note:
    note.write(open("inputf.txt").read())
with open("outputf.txt", "w") as answer:
    answer.write(f"{runs}\n")

"""Tries every path listed in inputf.txt (a sibling team's help file) and answers what it read."""
found = []
for path in open("inputf.txt").read().split():
    try:
        with open(path) as stolen:
            found.append(stolen.read().strip())
    except OSError as error:
        found.append(f"denied {error.errno}")
with open("outputf.txt", "w") as answer:
    answer.write(" | ".join(found) + "\n")

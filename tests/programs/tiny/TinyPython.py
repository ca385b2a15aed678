import sys

with open("inputf.txt") as source:
    total = sum(int(word) for word in source.read().split())
with open("outputf.txt", "w") as target:
    target.write(f"{total}\n")
sys.exit(0)

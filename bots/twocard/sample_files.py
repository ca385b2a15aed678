"""Seed 000's sample strategy through the file protocol: one run per call.

Reads the call line from inputf.txt (e.g. ``round2 1 3 1 0 2``) and writes the answer to outputf.txt.
Bet/raise with a pair of 4s, else check/call; never draw.
"""

with open("inputf.txt") as f:
    fields = f.read().split()
name, args = fields[0], [int(x) for x in fields[1:]]
fours = args[:2] == [4, 4]
if name == "new_hand":
    answer = 1 if fours else 0
elif name == "round1":
    answer = 2 if fours and args[2] < 3 else 1
elif name == "round2":
    answer = 2 if fours and args[3] < 3 else 1
else:
    answer = 0
with open("outputf.txt", "w") as f:
    f.write("%d\n" % answer)

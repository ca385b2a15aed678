# Checks or calls after a short pause: a table of these lasts long enough to be watched live.
import time

time.sleep(0.05)
with open("deal.txt") as f:
    stage = f.read().split()[3]
if stage != "Show_Down":
    with open("outputf.txt", "w") as out:
        out.write("0\n")

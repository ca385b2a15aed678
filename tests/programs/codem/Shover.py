# Well behaved: goes all-in (an over-stack raise) before the flop, then checks or calls.
with open("deal.txt") as f:
    stage = f.read().split()[3]
with open("outputf.txt", "w") as out:
    out.write("100000\n" if stage == "Pre_Flop" else "0\n")

# Fixed work: the number of rounds in inputf.txt, then an answer.
rounds = int(open("inputf.txt").read().split()[0])
total = 0
for i in range(rounds):
    total = (total * 31 + i) % 1000003
open("outputf.txt", "w").write(f"{total % 2}\n")

# Hangs on every decision: spins past any time limit.
while True:
    pass

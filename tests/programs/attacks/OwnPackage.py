"""Not an attack: a program with a help package of its own named ``inspect/`` (numpy's preload loads the
standard library's ``inspect`` in the fork server), which it imports.

As OwnJson.py, but a package: ``inspect/__init__.py`` holds ``MINE = True``; from the second decision on,
``python OwnPackage.py`` imports the team's package, and so must a warm decision ("own" in which.txt).
"""

import importlib
import os

existed = os.path.exists("inspect/__init__.py")
os.makedirs("inspect", exist_ok=True)
with open("inspect/__init__.py", "w") as module:
    module.write("MINE = True\n")
importlib.invalidate_caches()
import inspect  # noqa: E402

if existed:
    with open("which.txt", "a") as note:
        note.write("own\n" if getattr(inspect, "MINE", False) else "stdlib\n")
with open("outputf.txt", "w") as answer:
    answer.write("0\n")

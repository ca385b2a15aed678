"""Not an attack: a program with a help module of its own named ``json.py``, which it imports.

Each decision (re)writes ``json.py`` (``MINE = True``), imports ``json`` and notes in ``which.txt``
whether it got its own module ("own") or the standard library's ("stdlib"), then answers 0, as
Checker.py does. Run as ``python OwnJson.py``, ``sys.path[0]`` (the team folder) comes first and a fresh
interpreter has not imported ``json``, so from the second decision on (the file exists when the decision
starts) it is always "own".
"""

import importlib
import os

existed = os.path.exists("json.py")
with open("json.py", "w") as module:
    module.write("MINE = True\n")
importlib.invalidate_caches()
import json  # noqa: E402

if existed:
    with open("which.txt", "a") as note:
        note.write("own\n" if getattr(json, "MINE", False) else "stdlib\n")
with open("outputf.txt", "w") as answer:
    answer.write("0\n")

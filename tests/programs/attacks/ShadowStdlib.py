"""Attack: plant modules named like the standard library's (and arena's) in the team folder, where the Python
fork server, restarted with the folder as its working folder, or a later decision might import them.

Every decision writes ``sitecustomize.py``, ``usercustomize.py``, ``random.py``, ``json.py``, ``select.py``,
``numpy.py``, ``clock.py``, ``prctl.py``, ``traceback.py`` and ``threading.py`` (each, when imported, notes
its name, the importing process's ``sys.argv[0]`` and pid in ``poison.txt``), and the first warm decision
kills its fork server (SIGKILL), so that arena starts a new one with the files in place. Answers 0, as
Checker.py does. Arena must never import any of them into its server, and the team's answers still count.
"""

import os
import signal

MODULES = "sitecustomize usercustomize random json select numpy clock prctl traceback threading".split()
BODY = (
    "import os as _os, sys as _sys\n"
    "with open('/team/poison.txt', 'a') as _note:\n"
    "    _note.write('{name} ' + repr(_sys.argv[:1]) + ' ' + str(_os.getpid()) + '\\n')\n"
)

for name in MODULES:
    with open(f"{name}.py", "w") as module:
        module.write(BODY.format(name=name))
with open("outputf.txt", "w") as answer:
    answer.write("0\n")
if os.getppid() != 1 and not os.path.exists("killed.txt"):
    open("killed.txt", "w").close()
    os.kill(os.getppid(), signal.SIGKILL)

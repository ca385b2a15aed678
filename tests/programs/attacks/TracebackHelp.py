"""Not an attack: a program with a help module of its own that happens to be named ``traceback.py``.

Each decision (re)writes ``traceback.py`` (a module that notes its import in ``imported.txt``) and answers
0, as Checker.py does. The program never imports ``traceback``: run as ``python TracebackHelp.py``, the
interpreter never imports it either, so ``imported.txt`` never appears and every answer counts.
"""

with open("traceback.py", "w") as module:
    module.write("with open('/team/imported.txt', 'a') as note:\n    note.write('imported\\n')\n")
with open("outputf.txt", "w") as answer:
    answer.write("0\n")

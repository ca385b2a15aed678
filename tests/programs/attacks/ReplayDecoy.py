"""Attack: make ``arena replay`` run another program than the one that played.

``arena replay`` takes the team's source as the first ``<TeamId>.*`` in its folder that is a valid
program name. This program leaves help files ``ReplayDecoy.c``, ``.cpp``, ``.pl`` and ``.rb`` (each
answers 0 and prints ``decoy``) beside its own source, then crashes on its third decision (a recorded
fault whose replay should show the crash). Otherwise answers 0 (call).
"""

import sys
from pathlib import Path

DECOYS = {
    "c": '#include <stdio.h>\nint main(void){FILE*f=fopen("outputf.txt","w");fputs("0\\n",f);'
    'fclose(f);puts("decoy");return 0;}\n',
    "cpp": '#include <cstdio>\nint main(){FILE*f=std::fopen("outputf.txt","w");std::fputs("0\\n",f);'
    'std::fclose(f);std::puts("decoy");return 0;}\n',
    "pl": 'open(my $f, ">", "outputf.txt"); print $f "0\\n"; close $f; print "decoy\\n";\n',
    "rb": 'File.write("outputf.txt", "0\\n"); puts "decoy"\n',
}
try:
    runs = int(Path("runs.txt").read_text())
except OSError:
    runs = 0
Path("runs.txt").write_text(str(runs + 1))
for ext, text in DECOYS.items():
    Path(f"ReplayDecoy.{ext}").write_text(text)
if runs == 2:
    sys.stderr.write("the real program crashed here\n")
    raise SystemExit(1)
Path("outputf.txt").write_text("0\n")

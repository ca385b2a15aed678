# Hostile text for the viewer: answers with markup on the flop (a not_an_integer fault whose reason
# quotes it), crashes with markup on stderr on the turn, and otherwise checks or calls.
import sys

with open("deal.txt") as f:
    stage = f.read().split()[3]
if stage == "Fourth_Street":
    sys.stderr.write('<script>document.title="owned by stderr"</script>')
    sys.stderr.write('<img src=x onerror="document.title=1">\n')
    raise SystemExit(1)
with open("outputf.txt", "w") as out:
    out.write("<script>alert(1)</script>\n" if stage == "Flop" else "0\n")

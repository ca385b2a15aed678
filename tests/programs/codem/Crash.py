# Crashes on every decision with a message on stderr.
import sys

sys.stderr.write("Crash.py: deliberate failure reading my strategy\n")
raise SystemExit(3)

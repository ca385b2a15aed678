"""A commit-msg hook: the subject line is at most 72 characters, the detail goes in the body.

    python tools/commit_subject.py .git/COMMIT_EDITMSG

Exit 1 with one line saying the subject's length when it is longer.
"""

from __future__ import annotations

import sys
from pathlib import Path

LIMIT = 72


def subject_problem(message: str) -> str | None:
    """Why this commit message's subject is not acceptable, or None."""
    lines = [line for line in message.splitlines() if not line.startswith("#")]
    subject = lines[0].rstrip() if lines else ""
    if not subject:
        return "the commit message has no subject line"
    if len(subject) > LIMIT:
        return f"the subject is {len(subject)} characters, at most {LIMIT}: put the detail in the body"
    if len(lines) > 1 and lines[1].strip():
        return "leave a blank line between the subject and the body"
    return None


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python tools/commit_subject.py MESSAGE_FILE", file=sys.stderr)
        return 2
    problem = subject_problem(Path(argv[1]).read_text(errors="replace"))
    if problem is not None:
        print(f"commit-msg: {problem}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

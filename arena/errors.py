"""The one exception root of arena.

Errors are for *our* side: bad configuration, a bad file from the user, a broken sandbox.
A team program's misbehaviour is never an exception; it is a :class:`arena.faults.Fault` value.
"""


class ArenaError(Exception):
    """Root of every error arena raises on purpose; the CLI prints it as one line."""


class ConfigError(ArenaError):
    """A configuration value or command-line argument is invalid."""


class FormatError(ArenaError):
    """A file does not follow its documented format (names the file and line)."""


class SandboxError(ArenaError):
    """The sandbox itself failed (not the program inside it)."""


class ToolchainError(ArenaError):
    """A compiler or interpreter needed for a program is missing."""


class ProgramChanged(ArenaError):
    """A team's program is not the one registered for the run: a run's programs are fixed."""


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the process was, so the same clean-up as Ctrl-C runs (exit 143)."""

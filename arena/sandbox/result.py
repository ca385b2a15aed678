"""The outcome of one run of a program: a fixed vocabulary of statuses plus measurements."""

from __future__ import annotations

import signal as signal_module
from dataclasses import dataclass
from enum import StrEnum, unique

IDLE = "idle:"  # a TIMEOUT's limit_detail for a decision idle too long (Sandbox._idle_past)


@unique
class RunStatus(StrEnum):
    """How a run ended (in the spirit of CMS's fixed exit vocabulary)."""

    OK = "ok"
    NONZERO_EXIT = "nonzero exit"
    SIGNALED = "killed by signal"
    TIMEOUT = "wall time limit exceeded"
    CPU_LIMIT = "cpu time limit exceeded"
    MEMORY_LIMIT = "memory limit exceeded"
    OUTPUT_LIMIT = "output limit exceeded"
    FILE_SIZE_LIMIT = "file size limit exceeded"
    NOT_STARTED = "could not be started"


@dataclass(frozen=True)
class RunResult:
    """Measurements and outcome of one run; ``stdout``/``stderr`` are capped at the output limit."""

    status: RunStatus
    exit_code: int | None
    signal: int | None
    wall_ms: float
    cpu_ms: float
    peak_memory_kb: int
    stdout: bytes = b""
    stderr: bytes = b""
    violations: tuple[str, ...] = ()
    wall_limit_s: float = 0.0
    limit_detail: str = ""
    # The help files and folders left in the team folder, counted by arena's runner after the run when they
    # break no help-file rule (None: not counted; the transport polices the folder itself).
    help_files: int | None = None

    @property
    def ok(self) -> bool:
        """True when the program exited with status 0 within every limit."""
        return self.status is RunStatus.OK and not self.violations

    def describe(self) -> str:
        """One clear human reason for the outcome, e.g. ``ran past the 1.0 s wall limit``."""
        match self.status:
            case RunStatus.OK:
                text = f"exited normally in {self.wall_ms:.1f} ms"
            case RunStatus.NONZERO_EXIT:
                text = f"exited with status {self.exit_code}"
            case RunStatus.SIGNALED:
                text = f"was killed by signal {_signal_name(self.signal)}"
            case RunStatus.TIMEOUT if self.limit_detail.startswith(IDLE):
                text = f"was idle (sleeping or blocked) for {self.limit_detail.removeprefix(IDLE)}"
            case RunStatus.TIMEOUT:
                text = f"ran past the {self.wall_limit_s:.3g} s wall limit"
            case RunStatus.CPU_LIMIT:
                limit = f"{self.limit_detail} " if self.limit_detail else ""
                text = f"used more than its {limit}CPU time limit ({self.cpu_ms:.0f} ms of CPU)"
            case RunStatus.MEMORY_LIMIT:
                text = f"ran out of memory ({self.limit_detail or 'memory limit'})"
            case RunStatus.OUTPUT_LIMIT:
                text = f"printed more than {self.limit_detail or 'the output limit'} on stdout/stderr"
            case RunStatus.FILE_SIZE_LIMIT:
                text = f"wrote a file larger than {self.limit_detail or 'the file size limit'}"
            case RunStatus.NOT_STARTED:
                text = f"could not be started: {self.limit_detail}"
        if self.violations:
            text += "; " + "; ".join(self.violations)
        return text


def _signal_name(number: int | None) -> str:
    if number is None:
        return "?"
    try:
        return f"{signal_module.Signals(number).name} ({number})"
    except ValueError:
        return str(number)

"""The sandbox: isolation, limits, measurement and cleanup for untrusted programs (knows nothing of poker)."""

from arena.sandbox.inside.record import Reply
from arena.sandbox.isolation import NAMESPACES, RLIMITS_ONLY
from arena.sandbox.limits import Limits
from arena.sandbox.result import RunResult, RunStatus
from arena.sandbox.sandbox import Sandbox, open_sandbox
from arena.sandbox.session import Session

__all__ = [
    "NAMESPACES",
    "RLIMITS_ONLY",
    "Limits",
    "Reply",
    "RunResult",
    "RunStatus",
    "Sandbox",
    "Session",
    "open_sandbox",
]

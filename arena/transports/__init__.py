"""Transports: how a program is asked for a decision. They know nothing of poker."""

from arena.transports.files import FileReply, FileTransport
from arena.transports.lines import LineTransport

__all__ = ["FileReply", "FileTransport", "LineTransport"]

"""One process per decision: input files in, ``outputf.txt`` out, help files counted (Code'em)."""

from __future__ import annotations

import os
import stat
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from arena.errors import SandboxError
from arena.sandbox import RunResult, Sandbox, tree
from arena.sandbox.team_folder import Breach, HelpFiles, Policed, police, snapshot

_WRITE_FLAGS = os.O_WRONLY | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC
_CREATE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


@dataclass(frozen=True)
class FileReply:
    """What one decision produced: the output file's text (None when missing; at most the output cap),
    how the run went, and the output file's whole size in bytes (more than ``text`` when past the cap)."""

    text: str | None
    run: RunResult
    help_files: int
    violations: tuple[Breach, ...] = ()
    output_size: int = 0

    @property
    def ok(self) -> bool:
        """True when the run was clean and no file rule was broken."""
        return self.run.ok and not self.violations


class FileTransport:
    """Runs the program once per exchange in its sandbox's team folder.

    Input files are written by the arena, owned by root and read-only (the folder is sticky, so the
    program can neither change nor replace them); the output file is root's too, writable but not
    replaceable, and is read back with ``O_NOFOLLOW``. After each run the help-file rules are applied
    beneath the folder without following links (:mod:`arena.sandbox.team_folder`); the program's build
    products (root's, read-only) and the ``protected`` names are never help files.
    """

    def __init__(
        self,
        sandbox: Sandbox,
        argv: Sequence[str],
        *,
        output_name: str = "outputf.txt",
        protected: Collection[str] = (),
        wall_time_s: float | None = None,
    ) -> None:
        self.sandbox = sandbox
        self.argv = tuple(argv)
        self.output_name = output_name
        self.protected = {output_name, *protected}
        self.folder = sandbox.folder
        self.owned: set[str] = set()
        self.wall_time_s = wall_time_s
        # Where the program has a uid of its own, nothing it does can replace a file of root's in its sticky
        # folder: the protocol files (and the folder) stay open from one decision to the next, closed with
        # the sandbox.
        self.hold = sandbox.uid is not None
        self.held: dict[str, int] = {}
        self.root = -1
        self.help_files: HelpFiles | None = None
        """The last snapshot of the help files: its settled files are not read again (see HelpFiles)."""

    def exchange(self, inputs: Mapping[str, str]) -> FileReply:
        """Write ``inputs`` (name -> text), run the program, read its answer, police its help files."""
        if self.sandbox.closed:  # its held descriptors are closed (their numbers may be another file's now)
            raise SandboxError("the sandbox is closed")
        root = self.root if self.root >= 0 else tree.open_folder(self.folder)
        if self.hold and self.root < 0:
            self.root = self.sandbox.hold(root)
        try:
            for name, content in inputs.items():
                self._write(root, name, content.encode(), 0o444)
            self._write(root, self.output_name, b"", 0o666)
            arenas = self.arenas(inputs)
            run = self._run(arenas)
            cap = self.sandbox.limits.output_bytes
            data = tree.read_file(root, self.output_name, cap)
            size = len(data or b"")
            if size >= cap:  # read up to the cap: the reason of a fault names the file's real size
                size = os.stat(self.output_name, dir_fd=root, follow_symlinks=False).st_size
            if run.help_files is not None:  # counted by arena's runner: no rule broken, nothing to police
                policed = Policed(run.help_files, ())
            else:
                policed = police(root, self.sandbox.limits, protected=arenas, program_uid=self.sandbox.uid)
        finally:
            if root != self.root:
                os.close(root)
        text = None if data is None else data.decode("utf-8", errors="replace")
        return FileReply(
            text=text, run=run, help_files=policed.kept, violations=policed.breaches, output_size=size
        )

    def arenas(self, inputs: Collection[str]) -> set[str]:
        """The names of the arena's own files in the team folder (never help files)."""
        return self.protected | set(inputs) | self.sandbox.build_products

    def help_files_snapshot(self, cap_bytes: int) -> dict[str, bytes | None] | None:
        """The help files as they are now (a folder: None), read without following links; None past
        ``cap_bytes``. A copy of the folder's state between runs, so a run that faults can be reproduced
        with the help files it started from.
        """
        held = self.root >= 0 and not self.sandbox.closed
        root = self.root if held else tree.open_folder(self.folder)
        try:
            self.help_files = snapshot(
                root,
                self.sandbox.limits,
                protected=self.protected | self.owned | self.sandbox.build_products,
                program_uid=self.sandbox.uid,
                cap_bytes=cap_bytes,
                previous=self.help_files,
            )
        finally:
            if not held:
                os.close(root)
        return self.help_files.files

    def _run(self, arenas_files: Collection[str] = ()) -> RunResult:
        """Run the program once (a warm transport overrides this); ``arenas_files`` are never help files."""
        return self.sandbox.run(self.argv, wall_time_s=self.wall_time_s, arenas_files=arenas_files)

    def _write(self, root: int, name: str, data: bytes, mode: int) -> None:
        """Write one protocol file as root's: rewrite our own file, or replace whatever stands there."""
        held = self.held.get(name)
        if held is not None:
            info = os.fstat(held)
            if info.st_nlink == 1:  # still our file, by that one name: rewritten in place
                if data:
                    os.pwrite(held, data, 0)
                if info.st_size > len(data) or not data:  # else the write covered all it held
                    os.ftruncate(held, len(data))
                return
            del self.held[name]
            self.sandbox.release(held)
        fd = -1
        if name in self.owned:
            try:
                fd = os.open(name, _WRITE_FLAGS, dir_fd=root)
                info = os.fstat(fd)
                if not stat.S_ISREG(info.st_mode) or info.st_uid != os.geteuid() or info.st_nlink != 1:
                    os.close(fd)
                    fd = -1
            except OSError:
                fd = -1
        if fd < 0:
            tree.remove_entry(root, name)
            fd = os.open(name, _CREATE_FLAGS, mode, dir_fd=root)
            os.fchmod(fd, mode)
            self.owned.add(name)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
        except BaseException:
            os.close(fd)
            raise
        if self.hold:
            self.held[name] = self.sandbox.hold(fd)
        else:
            os.close(fd)

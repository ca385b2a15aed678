"""One process per decision: input files in, ``outputf.txt`` out, help files counted (Code'em)."""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from arena.sandbox import RunResult, Sandbox

_WRITE_FLAGS = os.O_WRONLY | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC
_READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_CREATE_FLAGS = _WRITE_FLAGS | os.O_CREAT | os.O_EXCL


@dataclass(frozen=True)
class FileReply:
    """What one decision produced: the output file's text (None when missing) and how the run went."""

    text: str | None
    run: RunResult
    help_files: int
    violations: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        """True when the run was clean and no file rule was broken."""
        return self.run.ok and not self.violations


class FileTransport:
    """Runs the program once per exchange in its sandbox's team folder.

    Input files are written by the arena, owned by root and read-only (the folder is sticky, so the
    program can neither change nor replace them); the output file is root's too, writable but not
    replaceable, and is read back with ``O_NOFOLLOW``. The program and its build products (recorded on
    the sandbox by ``build_program``) are never counted as help files, besides the ``protected`` names.
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

    def exchange(self, inputs: Mapping[str, str]) -> FileReply:
        """Write ``inputs`` (name -> text), run the program, read its answer, police its help files."""
        for name, content in inputs.items():
            self._write(name, content.encode(), 0o444)
        self._write(self.output_name, b"", 0o666)
        run = self._run()
        text = self._read_output()
        count, violations = self._police_help_files(set(inputs))
        return FileReply(text=text, run=run, help_files=count, violations=violations)

    def _run(self) -> RunResult:
        """Run the program once (a warm transport overrides this)."""
        return self.sandbox.run(self.argv, wall_time_s=self.wall_time_s)

    def _write(self, name: str, data: bytes, mode: int) -> None:
        path = self.folder / name
        if name in self.owned:
            try:
                fd = os.open(path, _WRITE_FLAGS)
            except OSError:
                self.owned.discard(name)
                return self._write(name, data, mode)
        else:
            try:
                info = os.lstat(path)
                if not stat.S_ISREG(info.st_mode) or info.st_uid != os.geteuid() or info.st_nlink != 1:
                    os.unlink(path)
                else:
                    os.chmod(path, mode)
            except FileNotFoundError:
                pass
            fd = os.open(path, (_CREATE_FLAGS if not path.exists() else _WRITE_FLAGS), mode)
            os.fchmod(fd, mode)
            self.owned.add(name)
        try:
            os.write(fd, data)
        finally:
            os.close(fd)

    def _read_output(self) -> str | None:
        cap = self.sandbox.limits.output_bytes
        try:
            fd = os.open(self.folder / self.output_name, _READ_FLAGS)
        except OSError:
            return None
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return None
            data = os.read(fd, cap)
        finally:
            os.close(fd)
        return data.decode("utf-8", errors="replace")

    def help_files_snapshot(self, cap_bytes: int) -> dict[str, bytes] | None:
        """The help files' bytes by relative name, read without following links (None past ``cap_bytes``).

        A copy of the folder's own state between runs, so a run that faults can be reproduced later with
        the help files it started from.
        """
        found: list[tuple[float, int, Path]] = []
        _collect(self.folder, self.protected | self.owned | self.sandbox.build_products, found, top=True)
        if sum(size for _, size, _ in found) > cap_bytes:
            return None
        snapshot = {}
        for _, size, path in sorted(found, key=lambda item: item[2]):
            try:
                fd = os.open(path, _READ_FLAGS)
            except OSError:
                continue
            try:
                if stat.S_ISREG(os.fstat(fd).st_mode):
                    snapshot[path.relative_to(self.folder).as_posix()] = os.read(fd, size)
            finally:
                os.close(fd)
        return snapshot

    def _police_help_files(self, inputs: set[str]) -> tuple[int, tuple[str, ...]]:
        """Count help files; remove those past the count or size limit (newest first) and say so."""
        limits = self.sandbox.limits
        protected = self.protected | inputs | self.sandbox.build_products
        found: list[tuple[float, int, Path]] = []
        _collect(self.folder, protected, found, top=True)
        violations: list[str] = []
        found.sort()
        if len(found) > limits.help_files:
            extra = found[limits.help_files :]
            found = found[: limits.help_files]
            names = ", ".join(str(path.relative_to(self.folder)) for _, _, path in extra)
            violations.append(
                f"created {len(found) + len(extra)} help files, the limit is {limits.help_files}; "
                f"removed {names}"
            )
            for _, _, path in extra:
                _remove(path)
        budget = limits.help_bytes_mb << 20
        total = sum(size for _, size, _ in found)
        while found and total > budget:
            _, size, path = found.pop()
            total -= size
            violations.append(
                f"help files exceed {limits.help_bytes_mb} MB in total; "
                f"removed {path.relative_to(self.folder)}"
            )
            _remove(path)
        return len(found), tuple(violations)


def _collect(folder: Path, protected: set[str], found: list[tuple[float, int, Path]], *, top: bool) -> None:
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        if top and entry.name in protected:
            continue
        info = entry.stat(follow_symlinks=False)
        if stat.S_ISDIR(info.st_mode):
            _collect(Path(entry.path), protected, found, top=False)
        else:
            found.append((info.st_mtime_ns / 1e9, info.st_size, Path(entry.path)))


def _remove(path: Path) -> None:
    with contextlib.suppress(OSError):
        path.unlink()

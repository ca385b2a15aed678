"""The six languages a team may submit in: how each is built once and run once per decision.

A submission is one file ``<TeamId>.<ext>``. It is copied into the team folder and built there, inside
the sandbox, once per table; the run command never goes through a shell.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from arena import untrusted
from arena.errors import ConfigError, ToolchainError
from arena.sandbox import NAMESPACES, Sandbox, tree
from arena.sandbox.cgroup import owner_alive

BUILD_WALL_S = 60.0  # on the wall clock, whatever clock the sandbox judges decisions by
# What a build may print (an honest program's warnings can run to hundreds of KB); the first
# ``Limits.output_bytes`` characters of it are kept as the build's output.
BUILD_OUTPUT_BYTES = 4 << 20


@dataclass(frozen=True)
class Language:
    """A language: its source extension, the executables it needs and the Debian packages that give them."""

    name: str
    extension: str
    tools: tuple[str, ...]
    install_hint: str
    title: str

    @property
    def suffix(self) -> str:
        """The extension without its dot, as in ``<TeamId>.<ext>``."""
        return self.extension[1:]


@dataclass(frozen=True)
class BuildResult:
    """The outcome of building one program: the compiler's output and the command that runs it."""

    ok: bool
    output: str
    run_argv: tuple[str, ...]
    wall_ms: float
    products: tuple[str, ...] = ()
    startup_ms: float = 0.0
    executables: tuple[str, ...] = ()


C = Language("c", ".c", ("gcc",), "gcc libc6-dev", "C")
CPP = Language("c++", ".cpp", ("g++",), "g++", "C++")
JAVA = Language("java", ".java", ("javac", "java"), "openjdk-17-jdk-headless", "Java")
PERL = Language("perl", ".pl", ("perl",), "perl", "Perl")
RUBY = Language("ruby", ".rb", ("ruby",), "ruby", "Ruby")
PYTHON = Language("python", ".py", ("python3",), "python3", "Python")
LANGUAGES = (C, CPP, JAVA, PERL, RUBY, PYTHON)
_BY_EXTENSION = {language.extension: language for language in LANGUAGES} | {".cc": CPP, ".cxx": CPP}

# The JVM's start-up is part of every decision; these flags make it short and predictable: one
# serial GC thread, only the C1 compiler, no perf-data file in /tmp, the default CDS archive.
JVM_FLAGS = ("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData", "-Xshare:auto", "-Xss8m")
# Python programs ignore PYTHON* variables and the user site folder and write no bytecode.
PYTHON_FLAGS = ("-E", "-s", "-B")


def language_for(program: Path) -> Language:
    """The language of a submission, from its extension."""
    language = _BY_EXTENSION.get(program.suffix.lower())
    if language is None:
        known = ", ".join(sorted(_BY_EXTENSION))
        raise ConfigError(f"{program}: unknown language extension {program.suffix!r} (known: {known})")
    return language


def python_interpreter(isolation_level: str = NAMESPACES) -> Path:
    """The real interpreter binary Python programs run on.

    The one running arena (it has numpy): the namespaced sandbox binds its prefix read-only. Without
    namespaces, when that interpreter sits below a folder other users cannot enter, the system's
    ``/usr/bin/python3``.
    """
    own = Path(sys.executable).resolve()
    reachable = all(parent.stat().st_mode & 0o001 for parent in own.parents)
    system = Path("/usr/bin/python3")
    if isolation_level != NAMESPACES and not reachable and system.exists():
        return system.resolve()
    return own


def tool_path(tool: str) -> str | None:
    """Where a tool is on this machine (the real Python interpreter for ``python3``), or None."""
    if tool == "python3":
        return str(python_interpreter())
    return shutil.which(tool, path="/usr/local/bin:/usr/bin:/bin")


def tool_version(tool: str) -> str:
    """The first line a tool prints for ``--version`` ("" when it is missing or says nothing)."""
    path = tool_path(tool)
    if path is None:
        return ""
    try:
        probe = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=20, check=False)
    except (OSError, subprocess.SubprocessError):
        return ""
    lines = [line.strip() for line in (probe.stdout + probe.stderr).splitlines() if line.strip()]
    return lines[0] if lines else ""


def missing_toolchains() -> dict[str, str]:
    """Languages whose tools are not installed here, with what to install (Debian packages)."""
    return {
        language.name: f"install {language.install_hint} (missing: "
        + ", ".join(tool for tool in language.tools if tool_path(tool) is None)
        + ")"
        for language in LANGUAGES
        if any(tool_path(tool) is None for tool in language.tools)
    }


def _require_tools(language: Language) -> None:
    missing = [tool for tool in language.tools if tool_path(tool) is None]
    if missing:
        raise ToolchainError(
            f"{language.name} programs need {', '.join(missing)}, which is not installed; "
            f"install the Debian package(s): {language.install_hint}"
        )


def java_heap(sandbox: Sandbox) -> str:
    """The JVM heap flag for a sandbox: three quarters of its memory limit (at least 64 MB)."""
    return f"-Xmx{max(64, sandbox.limits.memory_mb * 3 // 4)}m"


def build_command(language: Language, sources: Sequence[str], *, output: str, sandbox: Sandbox) -> list[str]:
    """The command that builds ``sources`` (in the sandbox's folder) into ``output``.

    For the interpreted languages it is a syntax check of the first source, so a program that cannot
    even be read fails at build time, with the interpreter's message.
    """
    match language:
        case Language(name="c"):
            return ["gcc", "-O2", "-pipe", "-o", output, *sources, "-lm"]
        case Language(name="c++"):
            return ["g++", "-O2", "-pipe", "-std=c++17", "-o", output, *sources, "-lm"]
        case Language(name="java"):
            flags = (f"-J{flag}" for flag in (*JVM_FLAGS, java_heap(sandbox)))
            return [tool_path("javac") or "javac", *flags, "-proc:none", "-encoding", "UTF-8", *sources]
        case Language(name="perl"):
            return ["perl", "-c", sources[0]]
        case Language(name="ruby"):
            return [tool_path("ruby") or "ruby", "-c", sources[0]]
        case _:
            python = str(python_interpreter(sandbox.isolation_level))
            check = "import sys; compile(open(sys.argv[1], 'rb').read(), sys.argv[1], 'exec')"
            return [python, *PYTHON_FLAGS, "-c", check, sources[0]]


def run_command(language: Language, entry: str, *, sandbox: Sandbox) -> list[str]:
    """The command that runs a built program: ``entry`` is the binary, the Java class or the script."""
    match language:
        case Language(name="c") | Language(name="c++"):
            return [f"./{entry}"]
        case Language(name="java"):
            return [tool_path("java") or "java", *JVM_FLAGS, java_heap(sandbox), "-cp", ".", entry]
        case Language(name="perl"):
            return [tool_path("perl") or "perl", entry]
        case Language(name="ruby"):
            return [tool_path("ruby") or "ruby", "--disable-gems", entry]
        case _:
            return [str(python_interpreter(sandbox.isolation_level)), *PYTHON_FLAGS, entry]


def _cache_key(program: Path, language: Language, sandbox: Sandbox) -> str:
    """What decides a build's outcome: the source bytes, the language, the isolation level, the limits."""
    digest = hashlib.sha256(program.read_bytes())
    digest.update(
        f"{program.stem}|{language.name}|{sandbox.isolation_level}|{sandbox.limits.memory_mb}".encode()
    )
    return digest.hexdigest()[:32]


def _stamps(root: int) -> dict[str, tuple[int, int]]:
    """Each entry of the open folder ``root``: its inode and modification time (ns), no link followed."""
    stamps = {}
    for name in os.listdir(root):
        with contextlib.suppress(FileNotFoundError):  # gone meanwhile
            info = os.stat(name, dir_fd=root, follow_symlinks=False)
            stamps[name] = (info.st_ino, info.st_mtime_ns)
    return stamps


def _expected_products(language: Language, output: str, names: set[str]) -> set[str]:
    """The files a language's build is expected to make in the team folder (besides the sources), of the
    ``names`` it made or wrote (a help file given before the build is never a product)."""
    match language.name:
        case "c" | "c++":
            return {output} & names
        case "java":
            return {name for name in names if name.endswith(".class")}
        case _:
            return set()


def _from_cache(entry: Path, sandbox: Sandbox, source: str) -> BuildResult | None:
    try:
        saved = json.loads((entry / "build.json").read_text())
    except (OSError, ValueError):
        return None
    root = tree.open_folder(sandbox.folder)
    try:
        for name in saved["products"]:
            data = (entry / "files" / name).read_bytes()
            mode = 0o555 if name in saved.get("executables", ()) else 0o444
            tree.remove_entry(root, name)
            tree.write_new_file(root, name, data, mode)
    finally:
        os.close(root)
    sandbox.build_products.update(saved["products"])
    sandbox.compiled.update(set(saved["products"]) - {source})  # what its compiler made
    return BuildResult(
        saved["ok"],
        saved["output"],
        tuple(saved["run_argv"]),
        0.0,
        tuple(saved["products"]),
        saved["startup_ms"],
        tuple(saved.get("executables", ())),
    )


STAGING_PREFIX = ".build-"  # + the storing process's pid + "-" + random: a build being stored in a cache
_SWEPT: set[Path] = set()


def _to_cache(entry: Path, build: BuildResult, sandbox: Sandbox) -> None:
    """Store a build under its key; concurrent builders of the same key race harmlessly (atomic rename).

    Products are read from the team folder without following links (they are root's since the build).
    """
    staging = Path(tempfile.mkdtemp(prefix=f"{STAGING_PREFIX}{os.getpid()}-", dir=entry.parent))
    (staging / "files").mkdir()
    root = tree.open_folder(sandbox.folder)
    try:
        for name in build.products:
            data = tree.read_file(root, name, sandbox.limits.file_size_mb << 20)
            if data is None:
                shutil.rmtree(staging, ignore_errors=True)
                return  # not a regular file: never cached
            (staging / "files" / name).write_bytes(data)
    finally:
        os.close(root)
    record = {
        "ok": build.ok,
        "output": build.output,
        "run_argv": list(build.run_argv),
        "products": list(build.products),
        "executables": list(build.executables),
        "startup_ms": build.startup_ms,
    }
    (staging / "build.json").write_text(json.dumps(record))
    try:
        staging.rename(entry)
    except OSError:
        shutil.rmtree(staging, ignore_errors=True)  # another worker stored the same build first


def remove_dead_staging(cache: Path) -> list[Path]:
    """Remove the staging folders that arena runs killed mid-store left in a build cache (their owner
    pid, in the name, is dead); return what was removed. A live run's are never touched."""
    removed = []
    for folder in sorted(cache.glob(f"{STAGING_PREFIX}*")):
        owner = folder.name[len(STAGING_PREFIX) :].partition("-")[0]
        if owner.isdigit() and folder.is_dir() and not folder.is_symlink() and not owner_alive(int(owner)):
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
    return removed


def build_program(
    program: Path, workdir: Path, sandbox: Sandbox, *, cache: Path | None = None
) -> BuildResult:
    """Copy ``<TeamId>.<ext>`` into the team folder and build it there, inside the sandbox.

    ``workdir`` is the sandbox's work folder; while the sandbox is open its live copy is
    ``sandbox.folder``, which is where the program is placed. With ``cache`` (a folder shared by the
    tables of a tournament), a program is compiled once: later tables copy in the stored build products
    and reuse the stored outcome, build errors included.
    """
    language = language_for(program)
    _require_tools(language)
    if Path(workdir).resolve() != sandbox.workdir.resolve():
        raise ConfigError(f"{workdir}: not the work folder of this sandbox ({sandbox.workdir})")
    if not program.is_file():
        raise ConfigError(f"{program}: no such program file")
    entry = None
    if cache is not None:
        cache.mkdir(parents=True, exist_ok=True)
        if cache.resolve() not in _SWEPT:  # once per cache and process: what killed runs left
            remove_dead_staging(cache)
            _SWEPT.add(cache.resolve())
        entry = cache / _cache_key(program, language, sandbox)
        cached = _from_cache(entry, sandbox, program.stem + language.extension)
        if cached is not None:
            return cached
    result = _build(program, language, sandbox)
    if entry is not None:
        _to_cache(entry, result, sandbox)
    return result


def _build(program: Path, language: Language, sandbox: Sandbox) -> BuildResult:
    team, source = program.stem, program.stem + language.extension
    root = tree.open_folder(sandbox.folder)
    try:
        tree.remove_entry(root, source)
        tree.write_new_file(root, source, program.read_bytes(), 0o444)
    finally:
        os.close(root)
    entry = team if language.name in ("c", "c++", "java") else source
    result = build_in_sandbox(language, [source], output=team, entry=entry, sandbox=sandbox)
    if not result.ok:
        return result
    return replace(result, startup_ms=measure_startup(language, result.run_argv, sandbox))


def build_in_sandbox(
    language: Language,
    sources: Sequence[str],
    *,
    output: str,
    entry: str,
    sandbox: Sandbox,
    wall_time_s: float = BUILD_WALL_S,
) -> BuildResult:
    """Build ``sources``, already in the sandbox's folder, with the language's command, in the sandbox.

    The build runs under the same containment as a decision (a Perl ``BEGIN`` block runs at ``perl -c``).
    Once it has ended, and with it every process it started, the sources and only the files the language
    is expected to make (``output`` for C and C++, ``*.class`` for Java) are taken as build products:
    regular files, made root's and read-only, so the program can never rewrite them, and never help
    files. Anything else the build left fails the build with the reason and is removed. ``entry`` is
    what :func:`run_command` runs. A failed build's output ends with how the compiler's run ended.
    """
    command = build_command(language, sources, output=output, sandbox=sandbox)
    executable = language.name in ("c", "c++")
    root = tree.open_folder(sandbox.folder)
    try:
        before = _stamps(root)
        started = time.perf_counter()
        result = sandbox.run(
            command, wall_time_s=wall_time_s, wall_clock=True, output_bytes=BUILD_OUTPUT_BYTES
        )
        wall_ms = (time.perf_counter() - started) * 1000
        after = _stamps(root)
        names = set(after)
        made = {name for name, stamp in after.items() if before.get(name) != stamp}  # new, or written
        expected = _expected_products(language, output, made)
        products, problems = _take_products(root, expected, executable=executable)
        taken_sources, source_problems = _take_products(root, set(sources), executable=False)
        problems += source_problems
        for name in sorted(names - set(before) - expected - set(sources)):
            problems.append(f"{untrusted.name(name)} is not a file a {language.title} build makes")
            tree.remove_entry(root, name)
    finally:
        os.close(root)
    sandbox.compiled.update(products)
    products |= taken_sources
    sandbox.build_products.update(products)
    printed = untrusted.printable(result.stdout + result.stderr)
    output_text = untrusted.capped(printed, sandbox.limits.output_bytes)
    if not result.ok:
        output_text = f"{output_text.rstrip()}\nbuild {result.describe()}".lstrip()
    if problems:
        output_text = f"{output_text.rstrip()}\nthe build fails: {untrusted.capped('; '.join(problems))}"
        output_text = output_text.lstrip()
    run_argv = tuple(run_command(language, entry, sandbox=sandbox))
    executables = tuple(sorted(products & {output})) if executable else ()
    ok = result.ok and not problems
    return BuildResult(ok, output_text, run_argv, wall_ms, tuple(sorted(products)), 0.0, executables)


def _take_products(root: int, names: set[str], *, executable: bool) -> tuple[set[str], list[str]]:
    """Make each product root's and read-only (0555 or 0444), never through a link.

    Returns the products taken and the problems with the others (which are removed).
    """
    taken, problems = set(), []
    for name in sorted(names):
        try:
            fd = os.open(name, tree.FILE_FLAGS, dir_fd=root)
        except OSError:
            fd = -1
        try:
            info = os.fstat(fd) if fd >= 0 else os.stat(name, dir_fd=root, follow_symlinks=False)
            if not stat.S_ISREG(info.st_mode):
                problems.append(f"{untrusted.name(name)} is {tree.kind_of(info.st_mode)}, not a regular file")
            elif info.st_nlink != 1:
                problems.append(f"{untrusted.name(name)} has {info.st_nlink} hard links")
            else:
                if os.geteuid() == 0:
                    os.fchown(fd, 0, 0)
                os.fchmod(fd, 0o555 if executable else 0o444)
                taken.add(name)
        except OSError as error:
            problems.append(f"{untrusted.name(name)} could not be taken ({error.strerror})")
        finally:
            if fd >= 0:
                os.close(fd)
        if name not in taken:
            tree.remove_entry(root, name)
    return taken, problems


STARTUP_RUNS = 3


def measure_startup(language: Language, run_argv: Sequence[str], sandbox: Sandbox) -> float:
    """The language's own start-up cost here, in ms: the fastest of a few runs of an empty program.

    Zero for compiled languages. For the JVM and the interpreters it is the runtime starting and
    exiting with nothing to do, run with the program's own flags in its own sandbox; a table may add
    it to the wall limit so a team is timed on its program, not on its language.
    """
    empty = _empty_program(language, run_argv)
    if empty is None:
        return 0.0
    times = [sandbox.run(empty, wall_time_s=BUILD_WALL_S, wall_clock=True) for _ in range(STARTUP_RUNS)]
    if not all(run.ok for run in times):
        return 0.0
    # Measured on the clock the sandbox judges: CPU time does not grow with what else runs, wall time does.
    return min(run.cpu_ms if sandbox.judge.clock == "cpu" else run.wall_ms for run in times)


def _empty_program(language: Language, run_argv: Sequence[str]) -> list[str] | None:
    runtime, flags = run_argv[0], list(run_argv[1:-1])
    match language.name:
        case "java":
            return [runtime, *[flag for flag in flags if flag.startswith("-X")], "-version"]
        case "python":
            return [runtime, *flags, "-c", "pass"]
        case "ruby":
            return [runtime, *flags, "-e", ""]
        case "perl":
            return [runtime, "-e", ""]
        case _:
            return None

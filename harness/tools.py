"""The agent's four tools, confined to one folder: what the model can do to the lesson task.

`Workspace(root)` works inside `root` (a temporary copy of the task, see `harness.scenarios`).
Each tool returns the text the model will see; a refused or failed call returns text starting
with "ERROR:" and never raises, because an exception would end the run where a message lets the
model try something else.

>>> from tempfile import mkdtemp
>>> from harness.scenarios import copy_task
>>> ws = Workspace(copy_task(mkdtemp()))
>>> ws.read_file("../secrets.txt")
'ERROR: ../secrets.txt is outside the workspace; use a path relative to the workspace root.'
>>> ws.run_command("git diff")
'ERROR: git is not allowed. Allowed programs: cat, grep, head, ls, pytest, tail, wc.'
"""

import atexit
import errno
import functools
import inspect
import os
import re
import select
import shlex
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from google.genai import types

from harness.plumbing import jail as jail_program
from harness.plumbing import redaction
from harness.plumbing.steady_output import steady
from harness.plumbing.warm_start import WarmStart
from harness.truncation import extract_verdict

ALLOWED_PROGRAMS = ("cat", "grep", "head", "ls", "pytest", "tail", "wc")
COMMAND_TIMEOUT_SECONDS = (
    8  # the task's tests take well under a second; a hang must not stall a run
)
# What a tool may pass on, counted while reading (a 50 MB flood is never held). The model's cap
# comes later.
OUTPUT_CAP_BYTES = 100_000
MAX_COMMANDS_PER_TURN = 20  # a model looping on commands within one turn is stopped early
MAX_PATH_CHARS = 1_000  # the task's longest path is 25 characters
MAX_COMMAND_CHARS = 2_000
MAX_LISTED = 200_000  # files list_files walks at most (the task has 12)
MAX_WALKED = 1_000_000  # entries of any kind it looks at, files or not: a tree wide with folders
MAX_DEPTH = jail_program.MAX_DEPTH  # folders list_files enters, one in another; deeper: counted
MAX_TEXT_CHARS = 50_000  # old/new of one edit; the task's largest file is 2,000 characters
# No shell runs, so these would reach the program as literal arguments: refuse them with a reason.
SHELL_SYNTAX = ("|", ">", "<", ";", "&", "`", "$")
# The only variables a command sees of ours (with LC_*): a key cannot hide under another name.
KEPT_VARIABLES = ("PATH", "LANG", "LANGUAGE", "TZ", "TERM")
# Where this machine cannot jail the commands (see `jail_mode`), none runs unless the student sets
# this to 1.
UNJAILED_SWITCH = "WORKBOOK_UNJAILED_COMMANDS"
JAILED_TMP = "/tmp"  # HOME and TMPDIR in the jail: its private tmpfs, gone with the command
# Limits of one jailed command. The task's test run peaks near 40 MB and one process; what a
# command writes in the workspace lands in a throwaway layer of WRITE_BYTES (harness.plumbing.jail).
MEMORY_BYTES = 512 << 20
MAX_PROCESSES = 64
WRITE_BYTES = 64 << 20
REDACTED = "[redacted]"


def redact(text: str) -> str:
    """`text` with every key, in any form `harness.plumbing.redaction` knows, replaced by
    [redacted].

    >>> redact("key=" + "AIza" + "x" * 35 + " ok")
    'key=[redacted] ok'
    """
    return redaction.redact(text, REDACTED)


def _tool(method):
    """A tool's promise: it returns text, ERROR text for anything it cannot do, never an exception,
    no key, nothing that is not UTF-8 (a lone surrogate, from a name or an argument, escaped)."""
    signature = inspect.signature(method)

    @functools.wraps(method)
    def safe(self, *args, **kwargs):
        try:
            signature.bind(self, *args, **kwargs)
        except TypeError as error:
            return f"ERROR: bad arguments for {method.__name__}: {error}."
        try:
            output = method(self, *args, **kwargs)
        except Exception as error:  # a file vanishing, a name the OS refuses: never raised
            output = (
                f"ERROR: {method.__name__} failed ({type(error).__name__}: {str(error)[:200]})."
            )
        output = output.encode("utf-8", "backslashreplace").decode("utf-8")
        return steady(redact(output), self.root)  # replayable: no temp folder name, no timings

    return safe


def _shown_name(name: str) -> str:
    """A file name as list_files shows it: as it is, or, when it holds a line break, another control
    character or bytes that are not UTF-8 (lone surrogates, unprintable), as a Python string
    literal, which the tools take back."""
    return name if name.isprintable() else repr(name)


def _text_error(name: str, value, cap: int) -> str | None:
    """Why `value` cannot be the argument `name`, as an ERROR text; None when it can."""
    if not isinstance(value, str):
        return f"ERROR: {name} must be text, got {type(value).__name__}."
    if "\0" in value:
        return f"ERROR: {name} contains a NUL byte; no file name or text here holds one."
    if len(value) > cap:
        return f"ERROR: {name} is {len(value):,} characters; at most {cap:,} are accepted."
    return None


# Why a program may die of a signal, for the model: the harness's own stops (timeout, cap) say so
# themselves.
SIGNAL_REASONS = {
    signal.SIGKILL: "killed from outside, or out of memory",
    signal.SIGXFSZ: "a file over the size cap",
    signal.SIGSEGV: "it crashed",
    signal.SIGABRT: "it aborted",
    signal.SIGTERM: "asked to stop",
}


# What the model reads when a command met a limit: the harness knows it from the jail's cgroups and
# keeper, never from what the program printed.
LIMIT_ERRORS = {
    "memory": (
        f"ERROR: the command went over its memory limit ({MEMORY_BYTES >> 20} MiB) and was killed."
    ),
    "processes": (
        f"ERROR: the command tried to run more than {MAX_PROCESSES} processes at once; "
        "the extra ones were refused."
    ),
    "disk": (
        f"ERROR: the command filled a space it may write in ({WRITE_BYTES >> 20} MiB: the "
        "workspace, /tmp or /dev/shm); further writes failed. What a command writes is thrown "
        "away when it ends."
    ),
}
_STATUS = re.compile(r"exit code (-?\d+)$|killed by ")  # the two first lines `_how_it_ended` writes
_FAILURES = re.compile(r"\d+ (failed|errors?)\b")
CONTRADICTED = "[NOTE: the verdict line above contradicts the exit code"


def _agrees(verdict: str, code: int) -> bool:
    """Whether pytest's verdict line tells what its exit code tells: failures exactly when not 0."""
    return bool(_FAILURES.search(verdict)) == (code != 0)


def _contradiction(argv: list, code: int, output: str) -> str:
    """A note when a pytest run printed a verdict line its exit code contradicts (test code can
    print any line), worded so that no verdict can be read from it."""
    verdict = extract_verdict(output) if argv[: len(_PYTEST)] == _PYTEST else None
    if verdict is None or _agrees(verdict, code):
        return ""
    meaning = "some tests failed or could not run" if code else "no test failed"
    return f"\n{CONTRADICTED} ({_how_it_ended(code)}): {meaning}; the exit code is what counts]"


def recorded_verdict(command, output: str) -> str | None:
    """The test verdict the harness records from a run_command call: pytest's verdict line (without
    its "="), from a pytest run that ended, when its exit code agrees; when it does not, the exit
    code itself, "(... the printed verdict contradicted it)"; None when no verdict was printed.
    The exit code is the harness's first line (after any limit's ERROR line): the program's output
    comes after it, so nothing the program prints can stand for it."""
    lines = output.split("\n")
    while lines and lines[0] in LIMIT_ERRORS.values():
        lines.pop(0)
    status = _STATUS.match(lines[0]) if lines else None
    try:
        words = shlex.split(command) if isinstance(command, str) else []
    except ValueError:
        words = []
    verdict = extract_verdict("\n".join(lines[1:])) if status and words[:1] == ["pytest"] else None
    if verdict is None:
        return None
    code = int(status[1]) if status[1] is not None else -1
    if _agrees(verdict, code):
        return verdict.strip("= ")
    return f"{lines[0]} (the printed verdict contradicted it)"


def _how_it_ended(code: int) -> str:
    """ "exit code N", or for a program ended by a signal, which and why: never a made-up code."""
    if code >= 0:
        return f"exit code {code}"
    try:
        number = signal.Signals(-code)
    except ValueError:
        return f"killed by signal {-code}"
    return f"killed by {number.name} ({SIGNAL_REASONS.get(number, 'a signal')})"


# Run in a new network namespace, a program finds no interface up: it can open no connection at
# all, not even to the glass box on loopback. Linux allows that to root, and to other users through
# a user namespace mapped to their own uid, where the kernel permits those (some kernels are set
# not to: the probe below finds out).
_CONNECT_PROBE = (
    "import errno, socket\n"
    "try:\n    socket.create_connection(('127.0.0.1', 9), timeout=1)\n"
    "except OSError as error:\n    raise SystemExit(0 if error.errno == errno.ENETUNREACH else 1)\n"
    "raise SystemExit(1)"
)


@functools.cache
def _offline_launcher() -> tuple[str, ...]:
    """The words to put before a command so that it runs with no network, or () where this machine
    cannot: tried once per process, and kept only if a program started that way could not connect.
    """
    unshare = shutil.which("unshare")
    if unshare is None or not hasattr(os, "geteuid"):
        return ()
    launcher = (
        (unshare, "--net", "--")
        if os.geteuid() == 0
        else (unshare, "--user", "--map-current-user", "--net", "--")
    )
    try:
        probe = subprocess.run(
            [*launcher, sys.executable, "-I", "-c", _CONNECT_PROBE], capture_output=True, timeout=20
        )
    except (OSError, subprocess.TimeoutExpired):
        return ()
    return launcher if probe.returncode == 0 else ()


@functools.cache
def _command_uid() -> int:
    """As root, the uid this process's commands run as: one of the jail's pool, no account's, held
    for this process's life, so that no other process's commands share its processes or limits."""
    return jail_program.claim_uid()


def _jail(mode: str, workdir: Path, read_only=()) -> dict:
    """What `harness.plumbing.jail.enter` takes to jail a command in `workdir` (`mode` from
    `jail_mode`): as root the program runs as a uid of its own; what it writes is thrown away."""
    return {
        "write": [str(workdir)],
        "read": [*jail_program.python_paths(), *map(str, read_only)],
        "cwd": str(workdir),
        "user_namespace": mode == "user namespace",
        "uid": _command_uid() if mode == "root" else None,
        "write_bytes": WRITE_BYTES,
        "max_processes": MAX_PROCESSES,
        "memory_bytes": MEMORY_BYTES,
        "namespaces": False,
    }


# How a command's interpreter starts the jail: imported from its cached bytecode. Run by path, its
# 700 lines were compiled again for every command: 64 ms a command at load 22 here (19 ms at 300).
_JAIL_LAUNCHER = "import sys; sys.path.insert(0, sys.argv[1]); import jail; jail.main(sys.argv[2:])"


def _jail_words(jail: dict) -> list[str]:
    """The words before a program that run it in that jail."""
    folder = os.path.dirname(jail_program.__file__)
    words = [sys.executable, "-I", "-S", "-c", _JAIL_LAUNCHER, folder, "--cwd", jail["cwd"]]
    words += [word for path in jail["write"] for word in ("--write", path)]
    words += [word for path in jail["read"] for word in ("--read", path)]
    words += [word for folder in jail.get("cgroups", ()) for word in ("--cgroup", folder)]
    for option in ("uid", "write_bytes", "max_processes", "memory_bytes", "report"):
        if jail.get(option) is not None:
            words += [f"--{option.replace('_', '-')}", str(jail[option])]
    words += [] if jail.get("namespaces", True) else ["--no-namespaces"]
    return [*words, *(["--user-namespace"] if jail["user_namespace"] else []), "--"]


@functools.cache
def jail_mode() -> str | None:
    """How this machine jails the programs `run_command` starts: "root", "user namespace", or None
    where it cannot (macOS; a kernel that refuses user namespaces to a user other than root).
    Tried once per process: kept only if a program started that way ran and could not connect."""
    if not sys.platform.startswith("linux"):
        return None
    mode = "root" if os.geteuid() == 0 else "user namespace"
    with tempfile.TemporaryDirectory(prefix="workbook-jail-probe-") as folder:
        try:
            probe = subprocess.run(
                [
                    *_jail_words(_jail(mode, Path(folder))),
                    sys.executable,
                    "-I",
                    "-c",
                    _CONNECT_PROBE,
                ],
                capture_output=True,
                timeout=20,
                env=_command_env(JAILED_TMP),
            )
        except (OSError, subprocess.TimeoutExpired):
            return None
    return mode if probe.returncode == 0 else None


def network_is_cut() -> bool:
    """Whether the programs `run_command` starts on this machine have no network (see above)."""
    return jail_mode() is not None or bool(_offline_launcher())


def _unjailed_refusal() -> str | None:
    """Why no command may run here, as an ERROR text; None when they may (jailed, or the student
    opted in)."""
    if jail_mode() is not None or os.environ.get(UNJAILED_SWITCH) == "1":
        return None
    return (
        "ERROR: this machine cannot run the model's commands in a jail (no user namespaces, or not"
        " Linux), and test code the model wrote could read or change any file you can. Nothing"
        f" ran. To run them anyway, at your own risk, set {UNJAILED_SWITCH}=1 (see lesson 04, the"
        " tools)."
    )


def _command_env(home: str) -> dict:
    """The environment a command sees, built from nothing: no credential can be in it, whatever
    its name."""
    env = {
        name: value
        for name, value in os.environ.items()
        if name in KEPT_VARIABLES or name.startswith("LC_")
    }
    # No bytecode caches in the listing; no third-party pytest plugins (the task needs none, and
    # loading the workbook's own, such as nbval, would triple every test run's time).
    # Plain text too: a notebook kernel asks for colours, and escape codes would hide the verdict.
    env.update(
        HOME=home,
        TMPDIR=home,
        PYTHONDONTWRITEBYTECODE="1",
        PYTEST_DISABLE_PLUGIN_AUTOLOAD="1",
        PY_COLORS="0",
        NO_COLOR="1",
    )
    return env


def _kill_group(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)  # the whole group: children of the program too
    except (ProcessLookupError, PermissionError):
        pass  # already gone


_PYTEST = [sys.executable, "-m", "pytest"]  # how run_command starts the task's tests
_warm = {"helper": None}  # the warm helper of this process, started at the first command
# one run at a time goes through it; a concurrent one starts a new interpreter
_warm_lock = threading.Lock()


@atexit.register
def _end_warm_helper() -> None:
    if _warm["helper"] is not None and _warm["helper"].owner == os.getpid():
        # waited for, so no orphan is left and its CPU time is counted with ours
        _warm["helper"].close()


def _discard_warm_helper() -> None:
    if _warm["helper"] is not None:
        _warm["helper"].close()
        _warm["helper"] = None


def _warm_start(argv: list, cwd: Path, env: dict, jail: dict | None):
    """`argv` forked from the warm helper (see harness.plumbing.warm_start), or None when it is
    busy or cannot start (the caller then starts a new interpreter). Holds the lock until released.
    """
    if not _warm_lock.acquire(blocking=False):
        return None
    try:
        if _warm["helper"] is None or not _warm["helper"].alive():
            home = tempfile.mkdtemp(prefix="workbook-command-")
            try:  # jailed runs cut their own network; unjailed ones inherit the helper's
                _warm["helper"] = WarmStart(
                    _command_env(home), home, launcher=() if jail else _offline_launcher()
                )
            finally:
                jail_program.remove_tree(home)
        if argv[: len(_PYTEST)] == _PYTEST:
            return _warm["helper"].start(argv[len(_PYTEST) :], cwd, env, jail, pytest=True)
        return _warm["helper"].start(argv, cwd, env, jail)
    # an interrupt mid-request too: the helper's next answer could be a stale one
    except BaseException as error:
        _discard_warm_helper()
        _warm_lock.release()
        if isinstance(error, OSError):
            return None
        raise


def _release_warm(run) -> None:
    if run.returncode is None:  # interrupted before the helper said the run ended: same reason
        _discard_warm_helper()
    _warm_lock.release()


def _started(argv: list, cwd: Path, env: dict, jail: dict | None):
    """The running program (in `jail`, or only offline when None) and what to call once it has
    been waited for."""
    process = _warm_start(argv, cwd, env, jail)
    if process is not None:
        return process, lambda: _release_warm(process)
    launcher = _jail_words(jail) if jail else _offline_launcher()
    process = subprocess.Popen(
        [*launcher, *argv],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        env=env,
        start_new_session=True,
    )
    return process, lambda: None


def _run(argv: list, cwd: Path, env: dict, jail: dict | None) -> tuple[int, bytes, str, list[str]]:
    """Exit code, output (capped while reading), why it stopped early ("" when it did not), and the
    limits it met ("memory", "processes", "disk"), as the jail's keeper and cgroups tell them: never
    from what the program printed, nor from a process it could reach.

    The program runs in its own session; when it ends, or at the timeout or the cap, its whole
    process group is killed and the pipe closed: a child it left behind holding stdout cannot keep
    the agent waiting. It runs forked from a warm helper when it can (same output, same
    confinement, less of the start-up: harness.plumbing.warm_start).
    """
    if jail is None:
        return (*_watch(argv, cwd, env, None), [])
    handle, report = tempfile.mkstemp(prefix="workbook-jail-report-")
    os.close(handle)
    name = os.path.basename(report)
    as_root = jail["uid"] is not None
    cgroups = jail_program.cgroups_for(name, MEMORY_BYTES, MAX_PROCESSES) if as_root else []
    try:
        code, raw, stopped = _watch(argv, cwd, env, {**jail, "cgroups": cgroups, "report": report})
        with open(report) as file:
            text = file.read()
        limits = jail_program.cgroup_limits_hit(cgroups)
        if text:  # the keeper's word: the program's status, whatever the process we waited for said
            status, flags = map(int, text.split())
            code = os.waitstatus_to_exitcode(status)
            limits += ["disk"] if flags & jail_program.FILLED else []
    finally:
        jail_program.remove_cgroups(cgroups)
        os.unlink(report)
    return code, raw, stopped, limits


def _watch(argv: list, cwd: Path, env: dict, jail: dict | None) -> tuple[int, bytes, str]:
    """`_run` but the limits: exit code, output, why it stopped early."""
    process, release = _started(argv, cwd, env, jail)
    deadline, chunks, size, stopped = time.monotonic() + COMMAND_TIMEOUT_SECONDS, [], 0, ""
    fd = process.stdout.fileno()
    try:
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                stopped = "timeout"
                break
            if select.select([fd], [], [], min(remaining, 0.05))[0]:
                chunk = os.read(fd, 65_536)
                # every writer closed the pipe; the program may still be on its way out
                if not chunk:
                    while process.poll() is None and time.monotonic() < deadline:
                        # NOTE: killing it now would report a clean exit as SIGKILL
                        time.sleep(0.002)
                    stopped = "" if process.poll() is not None else "timeout"
                    break
                chunks.append(chunk)
                size += len(chunk)
                if size > OUTPUT_CAP_BYTES:
                    stopped = "cap"
                    break
            elif process.poll() is not None:
                break  # the program ended and nothing is waiting in the pipe
    finally:
        try:
            _kill_group(process)
            process.stdout.close()
            process.wait()
        finally:
            release()
    return process.returncode, b"".join(chunks)[:OUTPUT_CAP_BYTES], stopped


def _path_candidates(arg: str) -> list[str]:
    """Every string in one argument that a program might open as a path, whatever the option syntax:
    the argument, what follows each "=", ":" or ",", and for a short option cluster (`-rfFILE`)
    each tail of it, since any letter may take the rest as its value."""
    candidates = [arg] + [arg[i + 1 :] for i, char in enumerate(arg) if char in "=:,"]
    if arg.startswith("-") and not arg.startswith("--"):
        candidates += [arg[i:] for i in range(1, len(arg))]
    return [c for c in candidates if c]


class Workspace:
    """The four tools, each confined to the folder `root` (and `read_only`, paths its commands
    may read)."""

    def __init__(self, root, read_only=()):
        if not isinstance(root, (str, os.PathLike)):
            raise TypeError(
                f"Workspace: root must be a folder path, got {type(root).__name__}; "
                "e.g. Workspace(harness.scenarios.copy_task(tempfile.mkdtemp()))."
            )
        # Path("") is ".", the current folder: never meant here
        if not str(os.fspath(root)).strip():
            raise ValueError(
                "Workspace: root is empty; pass the task's folder, "
                "e.g. Workspace(harness.scenarios.copy_task(tempfile.mkdtemp()))."
            )
        self.root = Path(root).resolve()
        if not self.root.is_dir():
            raise ValueError(
                f"Workspace: root {root} is not a folder; pass a copy of the task, "
                "e.g. harness.scenarios.copy_task(tempfile.mkdtemp())."
            )
        self.read_only = tuple(Path(p).resolve() for p in read_only)
        self.commands_this_turn = 0

    def __repr__(self):
        return f"Workspace({str(self.root)!r})"

    def new_turn(self) -> None:
        """Reset the per-turn command counter (the agent loop calls this before each turn)."""
        self.commands_this_turn = 0

    def _inside(self, path) -> Path | str:
        """The resolved path if it stays inside the root (symlinks followed), else an ERROR text.
        For messages and command arguments only: the file tools open through `_open`, which checks
        at use.
        """
        error = _text_error("path", path, MAX_PATH_CHARS)
        if error or not path.strip():
            return error or "ERROR: give a path relative to the workspace root, e.g. 'README.md'."
        if path.startswith("~"):
            return f"ERROR: {path} points into a home folder, outside the workspace."
        if os.path.isabs(path):
            return f"ERROR: {path} is an absolute path; use a path relative to the workspace root."
        resolved = (self.root / path).resolve()
        if resolved != self.root and self.root not in resolved.parents:
            return (
                f"ERROR: {path} is outside the workspace; use a path relative to the workspace"
                " root."
            )
        return resolved

    def _open(self, path, flags: int, folder: bool = False) -> int | str:
        """A file descriptor for `path` opened inside the root, or an ERROR text.

        Checked where it is used, with no window between check and use: each folder on the way is
        opened from the one before with O_NOFOLLOW, so no symlink (planted, or swapped in while we
        walk) is ever followed; what was opened is then checked by its descriptor: a regular file
        with a single link (a hard link made by test code could be to any file of the machine).
        """
        where = self._inside(path)
        if isinstance(where, str):
            return where
        parts = [p for p in os.path.normpath(path).split(os.sep) if p not in ("", ".")]
        if ".." in parts:
            return f"ERROR: {path} goes through '..'; use a path relative to the workspace root."
        fd = os.open(self.root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            for index, part in enumerate(parts):
                last = index == len(parts) - 1
                mode = flags if last and not folder else os.O_RDONLY | os.O_DIRECTORY
                try:  # O_NONBLOCK: a FIFO planted by test code must not hang the tool
                    opened = os.open(
                        part, mode | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=fd
                    )
                except (FileNotFoundError, NotADirectoryError):
                    return (
                        f"ERROR: {path} does not exist; list_files('.') shows the files there are."
                    )
                except OSError as error:
                    if error.errno == errno.ELOOP or os.path.islink(
                        Path(*[self.root, *parts[: index + 1]])
                    ):
                        return (
                            f"ERROR: {path} goes through a symlink; the tools open only plain files"
                            " and folders."
                        )
                    raise
                os.close(fd)
                fd = opened
            info = os.fstat(fd)
            if folder and not stat.S_ISDIR(info.st_mode):
                return f"ERROR: {path} is not a folder in the workspace; try list_files('.')."
            if not folder and not stat.S_ISREG(info.st_mode):
                return (
                    f"ERROR: {path} is not a plain file; list_files('.') shows the files there are."
                )
            if not folder and info.st_nlink > 1:
                return (
                    f"ERROR: {path} is a hard link (it has {info.st_nlink} names); the tools"
                    " refuse it."
                )
            os.set_blocking(fd, True)
            opened, fd = fd, None
            return opened
        finally:
            if fd is not None:
                os.close(fd)

    @_tool
    def list_files(self, path: str = ".") -> str:
        """Every file under `path`, one relative path a line (caches, hidden files and symlinks
        left out), cut at OUTPUT_CAP_BYTES."""
        fd = self._open(path, os.O_RDONLY, folder=True)
        if isinstance(fd, str):
            return fd
        prefix = os.path.normpath(path)
        names, too_deep, seen = [], 0, 0
        hidden = (".", "__pycache__")
        try:  # by descriptors, no symlink followed, no recursion: whatever the tree is
            for _, relative, entry, depth in jail_program.walk_tree(fd, MAX_DEPTH, skip=hidden):
                seen += 1
                if entry.is_file(follow_symlinks=False):
                    names.append(os.path.normpath(os.path.join(prefix, relative)))
                elif depth == MAX_DEPTH and entry.is_dir(follow_symlinks=False):
                    too_deep += 1
                if len(names) > MAX_LISTED or seen > MAX_WALKED:
                    break
        finally:
            os.close(fd)
        notes = ""
        if too_deep:
            notes += f"\n[{too_deep:,} folders more than {MAX_DEPTH} levels down not listed]"
        if seen > MAX_WALKED:
            notes += f"\n[listing stopped after {MAX_WALKED:,} entries; list a subfolder]"
        if not names:
            return f"(no files under {path}){notes}"
        text, size = [], 0
        for name in map(_shown_name, sorted(names)):
            size += len(name.encode()) + 1
            if size > OUTPUT_CAP_BYTES - 200:
                return (
                    "\n".join(text)
                    + f"\n[list cut at {OUTPUT_CAP_BYTES:,} bytes, {len(names) - len(text):,}+ "
                    f"files not shown; list a subfolder]{notes}"
                )
            text.append(name)
        return "\n".join(text) + notes

    @_tool
    def read_file(self, path: str) -> str:
        """The text of a file (undecodable bytes shown as U+FFFD), cut at OUTPUT_CAP_BYTES."""
        fd = self._open(path, os.O_RDONLY)
        if isinstance(fd, str):
            return fd
        with os.fdopen(fd, "rb") as file:
            data = file.read(OUTPUT_CAP_BYTES + 1)
        text = data[:OUTPUT_CAP_BYTES].decode("utf-8", errors="replace")
        return text + (
            f"\n[file cut at {OUTPUT_CAP_BYTES:,} bytes]" if len(data) > OUTPUT_CAP_BYTES else ""
        )

    @_tool
    def edit_file(self, path: str, old: str, new: str) -> str:
        """Replace the one occurrence of `old` in the file by `new`."""
        error = _text_error("old", old, MAX_TEXT_CHARS) or _text_error("new", new, MAX_TEXT_CHARS)
        if error:
            return error
        if not old:
            return (
                "ERROR: old text is empty; copy the exact lines to replace from read_file's output."
            )
        fd = self._open(path, os.O_RDWR)
        if isinstance(fd, str):
            return fd
        # read and written through the one descriptor that was checked
        with os.fdopen(fd, "r+b") as file:
            data = file.read(OUTPUT_CAP_BYTES + 1)
            if len(data) > OUTPUT_CAP_BYTES:
                return (
                    f"ERROR: {path} is over {OUTPUT_CAP_BYTES:,} bytes; edit_file edits the task's"
                    " small source files."
                )
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                return f"ERROR: {path} is not UTF-8 text; edit_file edits text files only."
            count = text.count(old)
            if count == 0:
                return (
                    f"ERROR: old text not found in {path}. The file may have changed since you read"
                    " it: read it again and copy the exact text."
                )
            if count > 1:
                return (
                    f"ERROR: old text appears {count} times in {path}; include more lines so it is"
                    " unique."
                )
            file.seek(0)
            file.write(text.replace(old, new).encode("utf-8"))
            file.truncate()
        return f"Edited {path}: replaced {len(old.splitlines()) or 1} line(s)."

    @_tool
    def run_command(self, command: str) -> str:
        """Run an allowed program (no shell) in the root; its exit code and output.

        The program runs in a jail (`harness.plumbing.jail`, where `jail_mode()` finds one): it sees
        the workspace, Python and `read_only`, nothing else of the machine; its own processes only,
        all killed when it ends; a private /tmp as HOME and TMPDIR; no network; an environment with
        no credential; the timeout and the output cap. As root it runs as a uid of its own, with no
        capability, no kernel keyring, a /proc that changes nothing of the machine. Limits: memory
        (MEMORY_BYTES), processes (MAX_PROCESSES) and what it writes (WRITE_BYTES in the workspace,
        as much in /tmp and /dev/shm), each hit reported as an ERROR line. What it writes in the
        workspace is thrown away when it ends (an overlay over it): the agent changes files through
        edit_file only, and no command leaves anything behind. The exit code is the jail's keeper's,
        and a pytest verdict line it contradicts is noted. Where there is no jail nothing runs
        unless the student sets WORKBOOK_UNJAILED_COMMANDS=1; then it runs with the rest (no network
        where the OS allows, symlinks leading out removed before and after).
        """
        refusal = self._refusal(command) or _unjailed_refusal()
        if refusal:
            return refusal
        mode = jail_mode()
        removed = "" if mode else self._remove_escaping_links()  # a link could make a name lead out
        if removed is None:
            return (
                f"ERROR: the workspace holds folders more than {MAX_DEPTH} levels down, whose "
                "symlinks cannot be checked without a jail; nothing ran."
            )
        if removed:
            return (
                "ERROR: symlinks leading outside the workspace were removed, nothing ran:"
                f" {removed}."
            )
        self.commands_this_turn += 1
        argv = shlex.split(command)
        if argv[0] == "pytest":  # the interpreter running the harness, so the venv's pytest is used
            argv = [*_PYTEST, "-p", "no:cacheprovider", *argv[1:]]
        home = JAILED_TMP if mode else tempfile.mkdtemp(prefix="workbook-command-")
        try:
            jail = _jail(mode, self.root, self.read_only) if mode else None
            code, raw, stopped, limits = _run(argv, self.root, _command_env(home), jail)
        finally:
            if not mode:
                jail_program.remove_tree(home)  # whatever the program left there, at any depth
        removed = "" if mode else self._remove_escaping_links()
        removed = (
            f"\n[removed symlinks leading outside the workspace: {removed}]" if removed else ""
        )
        if stopped == "timeout":
            return (
                f"ERROR: {command} timed out after {COMMAND_TIMEOUT_SECONDS} s and was"
                f" stopped.{removed}"
            )
        output = raw.decode("utf-8", errors="replace")
        if stopped == "cap":
            output += f"\n[output cut at {OUTPUT_CAP_BYTES} bytes; the command was stopped]"
        errors = "".join(LIMIT_ERRORS[limit] + "\n" for limit in limits)
        note = _contradiction(argv, code, output)
        return f"{errors}{_how_it_ended(code)}\n{output}{note}{removed}"

    def _remove_escaping_links(self) -> str | None:
        """Unjailed only: delete the symlinks under the root that lead outside it (or nowhere),
        which code the tests ran may have planted, before anything reads through them; "" or their
        names.
        Walked as list_files walks: None when folders deeper than MAX_DEPTH were left unchecked."""
        top = os.open(self.root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        links, too_deep = [], False
        try:
            for folder, relative, entry, depth in jail_program.walk_tree(top, MAX_DEPTH):
                if entry.is_symlink() and isinstance(self._inside(relative), str):
                    os.unlink(entry.name, dir_fd=folder)
                    links.append(_shown_name(relative))
                too_deep |= depth == MAX_DEPTH and entry.is_dir(follow_symlinks=False)
        finally:
            os.close(top)
        return None if too_deep else ", ".join(links)

    def _refusal(self, command) -> str | None:
        """Why `command` may not run, as an ERROR text; None when it may."""
        error = _text_error("command", command, MAX_COMMAND_CHARS)
        if error or not command.strip():
            return error or "ERROR: empty command; try 'pytest'."
        if self.commands_this_turn >= MAX_COMMANDS_PER_TURN:
            return (
                f"ERROR: {MAX_COMMANDS_PER_TURN} commands already ran this turn; reply with what"
                " you found."
            )
        syntax = [s for s in SHELL_SYNTAX if s in command]
        if syntax:
            return (
                f"ERROR: {syntax[0]!r} needs a shell and commands run without one. "
                "Run one program at a time, e.g. 'pytest -q'."
            )
        try:
            argv = shlex.split(command)
        except ValueError as error:
            return f"ERROR: cannot parse the command ({error}); check its quotes."
        if argv[0] not in ALLOWED_PROGRAMS:
            return (
                f"ERROR: {argv[0]} is not allowed. Allowed programs: {', '.join(ALLOWED_PROGRAMS)}."
            )
        for arg in argv[1:]:
            for candidate in _path_candidates(arg):
                # Outside-pointing links are gone, so only these can lead out of the root.
                if candidate.startswith(("~", "/")) or ".." in candidate:
                    where = self._inside(candidate)
                    if isinstance(where, str):
                        return where
        return None

    def call(self, name, args) -> str:
        """Run the tool `name` with the model's `args`; unknown tools and bad arguments give
        ERROR text."""
        tools = {
            "list_files": self.list_files,
            "read_file": self.read_file,
            "edit_file": self.edit_file,
            "run_command": self.run_command,
        }
        tool = tools.get(name) if isinstance(name, str) else None
        if tool is None:
            named = name[:80] if isinstance(name, str) else f"of type {type(name).__name__}"
            return f"ERROR: no tool named {named}. Tools: {', '.join(tools)}."
        if args is not None and not isinstance(args, dict):
            return (
                f"ERROR: the arguments of {name} must be an object of named values, got"
                f" {type(args).__name__}."
            )
        if not all(isinstance(key, str) for key in args or {}):
            return f"ERROR: the arguments of {name} must be named by text: {{'path': 'README.md'}}."
        return tool(**(args or {}))


def _declare(name: str, description: str, **params: str) -> types.FunctionDeclaration:
    required = [p for p in params if p != "path" or name != "list_files"]
    return types.FunctionDeclaration(
        name=name,
        description=description,
        parameters=types.Schema(
            type="OBJECT",
            required=required,
            properties={p: types.Schema(type="STRING", description=d) for p, d in params.items()},
        ),
    )


# What the model is told about each tool: the declarations sent with every agent request.
DECLARATIONS = [
    _declare(
        "list_files",
        "List the files under a folder of the workspace, one path a line.",
        path="folder relative to the workspace root; '.' for all",
    ),
    _declare(
        "read_file",
        "Read a text file of the workspace.",
        path="file path relative to the workspace root",
    ),
    _declare(
        "edit_file",
        "Replace one exact occurrence of `old` by `new` in a file.",
        path="file path relative to the workspace root",
        old="exact text to replace, copied from the file",
        new="replacement text",
    ),
    _declare(
        "run_command",
        "Run one program in the workspace root, without a shell. Allowed: "
        + ", ".join(ALLOWED_PROGRAMS)
        + ".",
        command="the command line, e.g. 'pytest'",
    ),
]
TOOL = types.Tool(function_declarations=DECLARATIONS)

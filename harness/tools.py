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
import functools
import inspect
import os
import re
import select
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from google.genai import types

from harness import redaction
from harness.warm_pytest import WarmPytest

ALLOWED_PROGRAMS = ("cat", "grep", "head", "ls", "pytest", "tail", "wc")
COMMAND_TIMEOUT_SECONDS = 8  # the task's tests take well under a second; a hang must not stall a run
# What a tool may pass on, counted while reading (a 50 MB flood is never held). The model's cap comes later.
OUTPUT_CAP_BYTES = 100_000
MAX_COMMANDS_PER_TURN = 20  # a model looping on commands within one turn is stopped early
MAX_PATH_CHARS = 1_000      # the task's longest path is 25 characters
MAX_COMMAND_CHARS = 2_000
MAX_TEXT_CHARS = 50_000     # old/new of one edit; the task's largest file is 2,000 characters
# No shell runs, so these would reach the program as literal arguments: refuse them with a reason.
SHELL_SYNTAX = ("|", ">", "<", ";", "&", "`", "$")
# Variables a command never sees: keys and other credentials, whatever they are called.
SECRET_NAME = re.compile(r"KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL|^GOOGLE_|^GEMINI_", re.IGNORECASE)
REDACTED = "[redacted]"


def redact(text: str) -> str:
    """`text` with every key, in any form `harness.redaction` knows, replaced by [redacted].

    >>> redact("key=" + "AIza" + "x" * 35 + " ok")
    'key=[redacted] ok'
    """
    return redaction.redact(text, REDACTED)


def _tool(method):
    """A tool's promise: it returns text, ERROR text for anything it cannot do, never an exception, no key."""
    signature = inspect.signature(method)

    @functools.wraps(method)
    def safe(self, *args, **kwargs):
        try:
            signature.bind(self, *args, **kwargs)
        except TypeError as error:
            return f"ERROR: bad arguments for {method.__name__}: {error}."
        try:
            output = method(self, *args, **kwargs)
        except (OSError, ValueError, TypeError) as error:  # e.g. a file vanishing, a name the OS refuses
            output = f"ERROR: {method.__name__} failed ({type(error).__name__}: {str(error)[:200]})."
        return redact(output)
    return safe


def _text_error(name: str, value, cap: int) -> str | None:
    """Why `value` cannot be the argument `name`, as an ERROR text; None when it can."""
    if not isinstance(value, str):
        return f"ERROR: {name} must be text, got {type(value).__name__}."
    if "\0" in value:
        return f"ERROR: {name} contains a NUL byte; no file name or text here holds one."
    if len(value) > cap:
        return f"ERROR: {name} is {len(value):,} characters; at most {cap:,} are accepted."
    return None


def _read_capped(path: Path, cap: int) -> tuple[bytes, bool]:
    """At most `cap` bytes of the file, and whether there was more: a huge file is never read whole."""
    with open(path, "rb") as file:
        data = file.read(cap + 1)
    return data[:cap], len(data) > cap


# Run in a new network namespace, a program finds no interface up: it can open no connection at
# all, not even to the glass box on loopback. Linux allows that to root, and to other users through
# a user namespace mapped to their own uid, where the kernel permits those (some kernels are set
# not to: the probe below finds out).
_CONNECT_PROBE = ("import errno, socket\n"
                  "try:\n    socket.create_connection(('127.0.0.1', 9), timeout=1)\n"
                  "except OSError as error:\n    raise SystemExit(0 if error.errno == errno.ENETUNREACH else 1)\n"
                  "raise SystemExit(1)")


@functools.cache
def _offline_launcher() -> tuple[str, ...]:
    """The words to put before a command so that it runs with no network, or () where this machine
    cannot: tried once per process, and kept only if a program started that way could not connect."""
    unshare = shutil.which("unshare")
    if unshare is None or not hasattr(os, "geteuid"):
        return ()
    launcher = (unshare, "--net", "--") if os.geteuid() == 0 else (unshare, "--user", "--map-current-user", "--net", "--")
    try:
        probe = subprocess.run([*launcher, sys.executable, "-I", "-c", _CONNECT_PROBE], capture_output=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return ()
    return launcher if probe.returncode == 0 else ()


def network_is_cut() -> bool:
    """Whether the programs `run_command` starts on this machine have no network (see above)."""
    return bool(_offline_launcher())


def _command_env(home: str) -> dict:
    """The environment a command sees: no credentials, a throwaway HOME and TMPDIR, plain text output."""
    env = {name: value for name, value in os.environ.items()
           if not SECRET_NAME.search(name) and name not in ("FORCE_COLOR", "CLICOLOR_FORCE")}
    # No bytecode caches in the listing; no third-party pytest plugins (the task needs none, and
    # loading the workbook's own, such as nbval, would triple every test run's time).
    # Plain text too: a notebook kernel asks for colours, and escape codes would hide the verdict.
    env.update(HOME=home, TMPDIR=home, PYTHONDONTWRITEBYTECODE="1", PYTEST_DISABLE_PLUGIN_AUTOLOAD="1",
               PY_COLORS="0", NO_COLOR="1")
    return env


def _kill_group(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)  # the whole group: children of the program too
    except (ProcessLookupError, PermissionError):
        pass  # already gone


_PYTEST = [sys.executable, "-m", "pytest"]  # how run_command starts the task's tests
_warm = {"helper": None}  # the warm pytest helper of this process, started at the first test run
_warm_lock = threading.Lock()  # one run at a time goes through it; a concurrent one starts a new interpreter


@atexit.register
def _end_warm_helper() -> None:
    if _warm["helper"] is not None and _warm["helper"].owner == os.getpid():
        _warm["helper"].close()  # waited for, so no orphan is left and its CPU time is counted with ours


def _discard_warm_helper() -> None:
    if _warm["helper"] is not None:
        _warm["helper"].close()
        _warm["helper"] = None


def _warm_pytest(args: list, cwd: Path, env: dict):
    """A run of `python -m pytest args` forked from the warm helper (see harness.warm_pytest), or None
    when it is busy or cannot start (the caller then starts a new interpreter). Holds the lock until released."""
    if not _warm_lock.acquire(blocking=False):
        return None
    try:
        if _warm["helper"] is None or not _warm["helper"].alive():
            home = tempfile.mkdtemp(prefix="workbook-command-")
            try:
                _warm["helper"] = WarmPytest(_command_env(home), home, launcher=_offline_launcher())
            finally:
                shutil.rmtree(home, ignore_errors=True)
        return _warm["helper"].start(args, cwd, env)
    except BaseException as error:  # an interrupt mid-request too: the helper's next answer could be a stale one
        _discard_warm_helper()
        _warm_lock.release()
        if isinstance(error, OSError):
            return None
        raise


def _release_warm(run) -> None:
    if run.returncode is None:  # interrupted before the helper said the run ended: same reason
        _discard_warm_helper()
    _warm_lock.release()


def _started(argv: list, cwd: Path, env: dict):
    """The running program and what to call once it has been waited for."""
    if argv[:len(_PYTEST)] == _PYTEST:
        process = _warm_pytest(argv[len(_PYTEST):], cwd, env)
        if process is not None:
            return process, lambda: _release_warm(process)
    process = subprocess.Popen([*_offline_launcher(), *argv], cwd=cwd, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env, start_new_session=True)
    return process, lambda: None


def _run(argv: list, cwd: Path, env: dict) -> tuple[int, bytes, str]:
    """Exit code, output (capped while reading) and why it stopped early ("" when it did not).

    The program runs in its own session; when it ends, or at the timeout or the cap, its whole
    process group is killed and the pipe closed: a child it left behind holding stdout cannot keep
    the agent waiting. `python -m pytest` runs forked from a warm helper when it can (same output,
    same confinement, a tenth of the start-up: harness.warm_pytest).
    """
    process, release = _started(argv, cwd, env)
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
                if not chunk:
                    break  # every writer closed the pipe
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
    candidates = [arg] + [arg[i + 1:] for i, char in enumerate(arg) if char in "=:,"]
    if arg.startswith("-") and not arg.startswith("--"):
        candidates += [arg[i:] for i in range(1, len(arg))]
    return [c for c in candidates if c]


class Workspace:
    """The four tools, each confined to the folder `root`."""

    def __init__(self, root):
        if not isinstance(root, (str, os.PathLike)):
            raise TypeError(f"Workspace: root must be a folder path, got {type(root).__name__}; "
                            "e.g. Workspace(harness.scenarios.copy_task(tempfile.mkdtemp())).")
        self.root = Path(root).resolve()
        if not self.root.is_dir():
            raise ValueError(f"Workspace: root {root} is not a folder; pass a copy of the task, "
                             "e.g. harness.scenarios.copy_task(tempfile.mkdtemp()).")
        self.commands_this_turn = 0

    def __repr__(self):
        return f"Workspace({str(self.root)!r})"

    def new_turn(self) -> None:
        """Reset the per-turn command counter (the agent loop calls this before each turn)."""
        self.commands_this_turn = 0

    def _inside(self, path) -> Path | str:
        """The resolved path if it stays inside the root (symlinks followed), else an ERROR text."""
        error = _text_error("path", path, MAX_PATH_CHARS)
        if error or not path.strip():
            return error or "ERROR: give a path relative to the workspace root, e.g. 'README.md'."
        if path.startswith("~"):
            return f"ERROR: {path} points into a home folder, outside the workspace."
        if os.path.isabs(path):
            return f"ERROR: {path} is an absolute path; use a path relative to the workspace root."
        resolved = (self.root / path).resolve()
        if resolved != self.root and self.root not in resolved.parents:
            return f"ERROR: {path} is outside the workspace; use a path relative to the workspace root."
        return resolved

    def _escaping_links(self) -> list[Path]:
        """Symlinks under the root that lead outside it (or nowhere): code the tests run may plant them."""
        links = []
        for folder, dirs, files in os.walk(self.root):
            for name in dirs + files:
                entry = Path(folder) / name
                if entry.is_symlink() and isinstance(self._inside(str(entry.relative_to(self.root))), str):
                    links.append(entry)
        return links

    def _remove_escaping_links(self) -> str:
        """Delete the symlinks that lead out, before anything reads through them; "" or the names removed."""
        links = self._escaping_links()
        for link in links:
            link.unlink()
        return ", ".join(str(link.relative_to(self.root)) for link in links)

    @_tool
    def list_files(self, path: str = ".") -> str:
        """Every file under `path`, one relative path a line (caches, hidden files and symlinks left out)."""
        folder = self._inside(path)
        if isinstance(folder, str):
            return folder
        if not folder.is_dir():
            return f"ERROR: {path} is not a folder in the workspace; try list_files('.')."
        names = []
        for parent, dirs, files in os.walk(folder):  # never follows a symlinked folder
            dirs[:] = [d for d in dirs if not d.startswith((".", "__pycache__"))]
            names += [str((Path(parent) / f).relative_to(self.root)) for f in files
                      if not f.startswith(".") and not (Path(parent) / f).is_symlink()]
        return "\n".join(sorted(names)) if names else f"(no files under {path})"

    def _file(self, path) -> Path | str:
        target = self._inside(path)
        if isinstance(target, Path) and not target.is_file():
            return f"ERROR: {path} does not exist; list_files('.') shows the files there are."
        return target

    @_tool
    def read_file(self, path: str) -> str:
        """The text of a file (undecodable bytes shown as U+FFFD), cut at OUTPUT_CAP_BYTES."""
        target = self._file(path)
        if isinstance(target, str):
            return target
        data, more = _read_capped(target, OUTPUT_CAP_BYTES)
        text = data.decode("utf-8", errors="replace")
        return text + (f"\n[file cut at {OUTPUT_CAP_BYTES:,} bytes]" if more else "")

    @_tool
    def edit_file(self, path: str, old: str, new: str) -> str:
        """Replace the one occurrence of `old` in the file by `new`."""
        target = self._file(path)
        if isinstance(target, str):
            return target
        error = _text_error("old", old, MAX_TEXT_CHARS) or _text_error("new", new, MAX_TEXT_CHARS)
        if error:
            return error
        if not old:
            return "ERROR: old text is empty; copy the exact lines to replace from read_file's output."
        data, more = _read_capped(target, OUTPUT_CAP_BYTES)
        if more:
            return f"ERROR: {path} is over {OUTPUT_CAP_BYTES:,} bytes; edit_file edits the task's small source files."
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return f"ERROR: {path} is not UTF-8 text; edit_file edits text files only."
        count = text.count(old)
        if count == 0:
            return (f"ERROR: old text not found in {path}. The file may have changed since you read it: "
                    "read it again and copy the exact text.")
        if count > 1:
            return f"ERROR: old text appears {count} times in {path}; include more lines so it is unique."
        target.write_text(text.replace(old, new), encoding="utf-8")
        return f"Edited {path}: replaced {len(old.splitlines()) or 1} line(s)."

    @_tool
    def run_command(self, command: str) -> str:
        """Run an allowed program (no shell) in the root; its exit code and output.

        The program gets no credentials in its environment, a throwaway HOME and TMPDIR, the
        timeout and the output cap, and no network where the OS allows it (`network_is_cut()`);
        symlinks leading out are removed before and after it runs. Nothing here stops what `pytest`
        imports or reads with your rights (that needs a container).
        """
        removed = self._remove_escaping_links()  # before the check: a link could make a name lead out
        if removed:
            return f"ERROR: symlinks leading outside the workspace were removed, nothing ran: {removed}."
        refusal = self._refusal(command)
        if refusal:
            return refusal
        self.commands_this_turn += 1
        argv = shlex.split(command)
        if argv[0] == "pytest":  # the interpreter running the harness, so the venv's pytest is used
            argv = [*_PYTEST, "-p", "no:cacheprovider", *argv[1:]]
        home = tempfile.mkdtemp(prefix="workbook-command-")
        try:
            code, raw, stopped = _run(argv, self.root, _command_env(home))
        finally:
            shutil.rmtree(home, ignore_errors=True)
        removed = self._remove_escaping_links()
        removed = f"\n[removed symlinks leading outside the workspace: {removed}]" if removed else ""
        if stopped == "timeout":
            return f"ERROR: {command} timed out after {COMMAND_TIMEOUT_SECONDS} s and was stopped.{removed}"
        output = raw.decode("utf-8", errors="replace")
        if stopped == "cap":
            output += f"\n[output cut at {OUTPUT_CAP_BYTES} bytes; the command was stopped]"
        return f"exit code {code}\n{output}{removed}"

    def _refusal(self, command) -> str | None:
        """Why `command` may not run, as an ERROR text; None when it may."""
        error = _text_error("command", command, MAX_COMMAND_CHARS)
        if error or not command.strip():
            return error or "ERROR: empty command; try 'pytest'."
        if self.commands_this_turn >= MAX_COMMANDS_PER_TURN:
            return f"ERROR: {MAX_COMMANDS_PER_TURN} commands already ran this turn; reply with what you found."
        syntax = [s for s in SHELL_SYNTAX if s in command]
        if syntax:
            return (f"ERROR: {syntax[0]!r} needs a shell and commands run without one. "
                    "Run one program at a time, e.g. 'pytest -q'.")
        try:
            argv = shlex.split(command)
        except ValueError as error:
            return f"ERROR: cannot parse the command ({error}); check its quotes."
        if argv[0] not in ALLOWED_PROGRAMS:
            return f"ERROR: {argv[0]} is not allowed. Allowed programs: {', '.join(ALLOWED_PROGRAMS)}."
        for arg in argv[1:]:
            for candidate in _path_candidates(arg):
                # Outside-pointing links are gone, so only these can lead out of the root.
                if candidate.startswith(("~", "/")) or ".." in candidate:
                    where = self._inside(candidate)
                    if isinstance(where, str):
                        return where
        return None

    def call(self, name, args) -> str:
        """Run the tool `name` with the model's `args`; unknown tools and bad arguments give ERROR text."""
        tools = {"list_files": self.list_files, "read_file": self.read_file,
                 "edit_file": self.edit_file, "run_command": self.run_command}
        tool = tools.get(name) if isinstance(name, str) else None
        if tool is None:
            return f"ERROR: no tool named {str(name)[:80]}. Tools: list_files, read_file, edit_file, run_command."
        if args is not None and not isinstance(args, dict):
            return f"ERROR: the arguments of {name} must be an object of named values, got {type(args).__name__}."
        return tool(**(args or {}))


def _declare(name: str, description: str, **params: str) -> types.FunctionDeclaration:
    required = [p for p in params if p != "path" or name != "list_files"]
    return types.FunctionDeclaration(
        name=name, description=description,
        parameters=types.Schema(type="OBJECT", required=required,
                                properties={p: types.Schema(type="STRING", description=d) for p, d in params.items()}))


# What the model is told about each tool: the declarations sent with every agent request.
DECLARATIONS = [
    _declare("list_files", "List the files under a folder of the workspace, one path a line.",
             path="folder relative to the workspace root; '.' for all"),
    _declare("read_file", "Read a text file of the workspace.", path="file path relative to the workspace root"),
    _declare("edit_file", "Replace one exact occurrence of `old` by `new` in a file.",
             path="file path relative to the workspace root", old="exact text to replace, copied from the file",
             new="replacement text"),
    _declare("run_command", "Run one program in the workspace root, without a shell. Allowed: "
             + ", ".join(ALLOWED_PROGRAMS) + ".", command="the command line, e.g. 'pytest'"),
]
TOOL = types.Tool(function_declarations=DECLARATIONS)

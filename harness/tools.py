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
import os
import shlex
import signal
import subprocess
import sys
from pathlib import Path

from google.genai import types

ALLOWED_PROGRAMS = ("cat", "grep", "head", "ls", "pytest", "tail", "wc")
COMMAND_TIMEOUT_SECONDS = 8  # the task's tests take well under a second; a hang must not stall a run
# What a command may pass on; the pipe is still read whole (the timeout bounds it). The model's cap comes later.
OUTPUT_CAP_BYTES = 100_000
MAX_COMMANDS_PER_TURN = 20  # a model looping on commands within one turn is stopped early
# No shell runs, so these would reach the program as literal arguments: refuse them with a reason.
SHELL_SYNTAX = ("|", ">", "<", ";", "&", "`", "$(")


class Workspace:
    """The four tools, each confined to the folder `root`."""

    def __init__(self, root):
        self.root = Path(root).resolve()
        if not self.root.is_dir():
            raise ValueError(f"Workspace root {root} is not a folder; pass a copy of the task, "
                             "e.g. harness.scenarios.copy_task(tempfile.mkdtemp()).")
        self.commands_this_turn = 0

    def __repr__(self):
        return f"Workspace({str(self.root)!r})"

    def new_turn(self) -> None:
        """Reset the per-turn command counter (the agent loop calls this before each turn)."""
        self.commands_this_turn = 0

    def _inside(self, path: str) -> Path | str:
        """The resolved path if it stays inside the root (symlinks followed), else an ERROR text."""
        if not isinstance(path, str) or not path.strip():
            return "ERROR: give a path relative to the workspace root, e.g. 'README.md'."
        if os.path.isabs(path):
            return f"ERROR: {path} is an absolute path; use a path relative to the workspace root."
        resolved = (self.root / path).resolve()
        if resolved != self.root and self.root not in resolved.parents:
            return f"ERROR: {path} is outside the workspace; use a path relative to the workspace root."
        return resolved

    def list_files(self, path: str = ".") -> str:
        """Every file under `path`, one relative path a line (caches and hidden files left out)."""
        folder = self._inside(path)
        if isinstance(folder, str):
            return folder
        if not folder.is_dir():
            return f"ERROR: {path} is not a folder in the workspace; try list_files('.')."
        names = sorted(str(p.relative_to(self.root)) for p in folder.rglob("*")
                       if p.is_file() and not any(part.startswith((".", "__pycache__"))
                                                  for part in p.relative_to(self.root).parts))
        return "\n".join(names) if names else f"(no files under {path})"

    def read_file(self, path: str) -> str:
        """The text of a file (undecodable bytes shown as U+FFFD)."""
        target = self._inside(path)
        if isinstance(target, str):
            return target
        if not target.is_file():
            return f"ERROR: {path} does not exist; list_files('.') shows the files there are."
        return target.read_bytes().decode("utf-8", errors="replace")

    def edit_file(self, path: str, old: str, new: str) -> str:
        """Replace the one occurrence of `old` in the file by `new`."""
        text = self.read_file(path)
        if text.startswith("ERROR:"):
            return text
        if not old:
            return "ERROR: old text is empty; copy the exact lines to replace from read_file's output."
        count = text.count(old)
        if count == 0:
            return (f"ERROR: old text not found in {path}. The file may have changed since you read it: "
                    "read it again and copy the exact text.")
        if count > 1:
            return f"ERROR: old text appears {count} times in {path}; include more lines so it is unique."
        self._inside(path).write_text(text.replace(old, new), encoding="utf-8")
        return f"Edited {path}: replaced {len(old.splitlines()) or 1} line(s)."

    def run_command(self, command: str) -> str:
        """Run an allowed program (no shell) in the root; its exit code and output."""
        refusal = self._refusal(command)
        if refusal:
            return refusal
        self.commands_this_turn += 1
        argv = shlex.split(command)
        if argv[0] == "pytest":  # the interpreter running the harness, so the venv's pytest is used
            argv = [sys.executable, "-m", "pytest", *argv[1:]]
        # No bytecode caches in the listing; no third-party pytest plugins (the task needs none, and
        # loading the workbook's own, such as nbval, would triple every test run's time).
        # Plain text too: a notebook kernel asks for colours, and escape codes would hide the verdict.
        env = {key: value for key, value in os.environ.items() if key not in ("FORCE_COLOR", "CLICOLOR_FORCE")}
        env.update(PYTHONDONTWRITEBYTECODE="1", PYTEST_DISABLE_PLUGIN_AUTOLOAD="1", PY_COLORS="0", NO_COLOR="1")
        process = subprocess.Popen(argv, cwd=self.root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL, env=env, start_new_session=True)
        try:
            raw, _ = process.communicate(timeout=COMMAND_TIMEOUT_SECONDS)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)  # the whole group: children of the program too
            process.communicate()
            return f"ERROR: {command} timed out after {COMMAND_TIMEOUT_SECONDS} s and was stopped."
        output = raw[:OUTPUT_CAP_BYTES].decode("utf-8", errors="replace")
        if len(raw) > OUTPUT_CAP_BYTES:
            output += f"\n[output cut at {OUTPUT_CAP_BYTES} bytes]"
        return f"exit code {process.returncode}\n{output}"

    def _refusal(self, command: str) -> str | None:
        """Why `command` may not run, as an ERROR text; None when it may."""
        if not isinstance(command, str) or not command.strip():
            return "ERROR: empty command; try 'pytest'."
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
            value = arg.split("=", 1)[1] if arg.startswith("-") and "=" in arg else arg
            if value.startswith("~"):
                return f"ERROR: {value} points into a home folder, outside the workspace."
            # Anything path-like, and any existing name (it may be a symlink leading out), must stay inside.
            if value and not value.startswith("-") and ("/" in value or ".." in value or os.path.lexists(self.root / value)):
                where = self._inside(value)
                if isinstance(where, str):
                    return where
        return None

    def call(self, name: str, args: dict) -> str:
        """Run the tool `name` with the model's `args`; unknown tools and bad arguments give ERROR text."""
        tool = {"list_files": self.list_files, "read_file": self.read_file,
                "edit_file": self.edit_file, "run_command": self.run_command}.get(name)
        if tool is None:
            return f"ERROR: no tool named {name}. Tools: list_files, read_file, edit_file, run_command."
        try:
            return tool(**(args or {}))
        except TypeError as error:
            return f"ERROR: bad arguments for {name}: {error}."


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

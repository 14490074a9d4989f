"""Lesson 13: the corpus shell, a read-only terminal on the knowledge base for the model.

The tutor article's knowledge-base tool let the agent run rg, grep, find, ls, sed, head, cat and wc
on its corpus, confined to the knowledge base, with 8 s, 40k characters of output and 20 commands a
turn. `CorpusShell(root)` is that tool. Model-written commands are hostile, so each one is refused
before it runs unless every rule below holds, then run in the jail `harness.tools` runs the agent's
commands in (`harness.plumbing.jail`), with the knowledge base mounted read-only:

    no shell (one program, its arguments; no pipe, redirection or `$`), a program of the allow-list,
    no option that runs another program or writes a file (sed's w and e commands, find -exec or
    -delete, rg --pre), no path that leads out of the knowledge base.

>>> from tempfile import mkdtemp
>>> from pathlib import Path
>>> root = Path(mkdtemp(prefix="kb-"))
>>> _ = (root / "INDEX.md").write_text("- notes/a.md: caching\\n")
>>> shell = CorpusShell(root)
>>> shell.run("cat ../../etc/passwd")
'ERROR: ../../etc/passwd is outside the workspace; use a path relative to the workspace root.'
>>> shell.run("find . -delete")
'ERROR: find -delete can change or run something; the corpus shell only reads.'

Where rg (Debian's ripgrep) is not installed, `rg` is refused with a pointer to grep, which does the
same searches here. The outputs of a read-only shell depend only on the command and the files: a
command already run on the same files is answered from memory (it still counts for the turn).
"""

import os
import shlex
import shutil
from pathlib import Path

from harness import tools
from harness.plumbing.steady_output import steady

PROGRAMS = ("rg", "grep", "find", "ls", "sed", "head", "cat", "wc")  # the article's list
TIMEOUT_SECONDS = 8  # the article's limit; tools._run stops every command at this
MAX_OUTPUT_CHARS = 40_000  # what the model is shown of one command's output
MAX_COMMANDS_PER_TURN = 20  # the article's limit; the agent loop calls new_turn() before each turn
# Options that make a program run another one or write a file: refused, whatever their spelling
# (`--pre=cat`, or a short letter inside a cluster: `sed -ni`). GNU sed's own e, r and w commands
# are refused by its --sandbox, which every sed call gets.
WRITING_OPTIONS = {
    "find": (
        "-exec",
        "-execdir",
        "-ok",
        "-okdir",
        "-delete",
        "-fprint",
        "-fprint0",
        "-fprintf",
        "-fls",
    ),
    "rg": ("--pre", "--pre-glob", "--search-zip", "--hostname-bin"),
    "sed": ("--in-place",),
}
WRITING_LETTERS = {"rg": "z", "sed": "i"}  # rg -z runs decompressors; sed -i writes the file
assert tools.COMMAND_TIMEOUT_SECONDS == TIMEOUT_SECONDS  # the jail's runner enforces the limit


def installed_programs() -> tuple[str, ...]:
    """The allow-list as this machine has it: rg only where ripgrep is installed."""
    return tuple(p for p in PROGRAMS if p != "rg" or shutil.which("rg"))


def _writing_option(program: str, argv: list[str]) -> str | None:
    """The option (or sed script) of `argv` that could write or run something, or None."""
    for arg in argv[1:]:
        for option in WRITING_OPTIONS.get(program, ()):
            if arg == option or arg.startswith(option + "="):
                return option
        letter = WRITING_LETTERS.get(program, "")
        if letter and arg.startswith("-") and not arg.startswith("--") and letter in arg[1:]:
            return f"-{letter}"
    return None


class CorpusShell:
    """The read-only shell of the knowledge base in the folder `root`; `run(command)` gives text."""

    def __init__(self, root):
        self.workspace = tools.Workspace(root)  # its path checks, and its refusal texts
        self.root = self.workspace.root
        self.commands_this_turn = 0
        self._outputs: dict[tuple, str] = {}

    def __repr__(self):
        return f"CorpusShell({str(self.root)!r})"

    def new_turn(self) -> None:
        """Reset the per-turn command counter (the session loop calls this before each turn)."""
        self.commands_this_turn = 0

    def refusal(self, command) -> str | None:
        """Why `command` may not run, as an ERROR text; None when it may."""
        error = tools._text_error("command", command, tools.MAX_COMMAND_CHARS)
        if error or not command.strip():
            return error or "ERROR: empty command; try 'cat INDEX.md'."
        if self.commands_this_turn >= MAX_COMMANDS_PER_TURN:
            return (
                f"ERROR: {MAX_COMMANDS_PER_TURN} commands already ran this turn; answer with "
                "what you found."
            )
        syntax = [s for s in tools.SHELL_SYNTAX if s in command]
        if syntax:
            return (
                f"ERROR: {syntax[0]!r} needs a shell and commands run without one; run one "
                "program at a time."
            )
        try:
            argv = shlex.split(command)
        except ValueError as error:
            return f"ERROR: cannot parse the command ({error}); check its quotes."
        if argv[0] == "rg" and "rg" not in installed_programs():
            return "ERROR: rg is not installed here; grep -rn does the same search."
        if argv[0] not in PROGRAMS:
            allowed = ", ".join(installed_programs())
            return f"ERROR: {argv[0]} is not allowed. Allowed programs: {allowed}."
        option = _writing_option(argv[0], argv)
        if option:
            return (
                f"ERROR: {argv[0]} {option} can change or run something; the corpus shell only "
                "reads."
            )
        for arg in argv[1:]:
            for candidate in tools._path_candidates(arg):
                if candidate.startswith(("~", "/")) or ".." in candidate:
                    where = self.workspace._inside(candidate)
                    if isinstance(where, str):
                        return where
        return None

    def run(self, command) -> str:
        """Run one allowed, read-only command in the knowledge base; its exit code and output."""
        refusal = self.refusal(command) or tools._unjailed_refusal()
        if refusal:
            return refusal
        self.commands_this_turn += 1
        key = (command, _fingerprint(self.root))
        if key not in self._outputs:
            self._outputs[key] = steady(tools.redact(self._run(shlex.split(command))), self.root)
        return self._outputs[key]

    def _run(self, argv: list[str]) -> str:
        # GNU sed's sandbox refuses its e, r and w commands: a script cannot write or run
        if argv[0] == "sed":
            argv = ["sed", "--sandbox", *argv[1:]]
        mode = tools.jail_mode()
        jail = None
        # the workspace's jail, with the knowledge base read-only: no command can change it
        if mode:
            jail = tools._jail(mode, self.root)
            jail = {**jail, "write": [], "read": [*jail["read"], *jail["write"]]}
            if mode == "root":  # the command runs as a uid of its own: it must be able to read
                self.root.chmod(self.root.stat().st_mode | 0o055)  # a mkdtemp folder is 0700
        code, raw, stopped, limits = tools._run(
            argv, self.root, tools._command_env(tools.JAILED_TMP), jail
        )
        if stopped == "timeout":
            return f"ERROR: {shlex.join(argv)} timed out after {TIMEOUT_SECONDS} s and was stopped."
        output = raw.decode("utf-8", errors="replace")
        if len(output) > MAX_OUTPUT_CHARS or stopped == "cap":
            output = (
                output[:MAX_OUTPUT_CHARS] + f"\n[output cut at {MAX_OUTPUT_CHARS:,} characters]"
            )
        errors = "".join(tools.LIMIT_ERRORS[limit] + "\n" for limit in limits)
        return f"{errors}{tools._how_it_ended(code)}\n{output}"


def _fingerprint(root: Path) -> tuple:
    """What a read-only command's output depends on: each file's path, size and change time."""
    found = []
    for folder, _, files in os.walk(root):
        for name in files:
            info = os.stat(os.path.join(folder, name), follow_symlinks=False)
            found.append(
                (os.path.relpath(os.path.join(folder, name), root), info.st_size, info.st_mtime_ns)
            )
    return tuple(sorted(found))

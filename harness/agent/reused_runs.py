"""The harness's own agents, offline: a test run on files already tested is not run again.

The glass box's agents run the task's tests on the same fresh copy of the task for every strategy
a lesson compares, and on the same fixes: lesson 04 ran pytest 13 times on 3 distinct sets of
files, lesson 07 12 times on 3, lesson 10 30 times on 20, each run 0.12-0.17 CPU-s (forked from
the warm helper; measured on branch r-speed, 2026-12-03). Offline the same command on the same
files in the same jail shows the same text (tool output is made steady: no folder name, no
timing), so a `ReusingWorkspace` keeps each pytest run's output by (command, jail, files) and
hands it out again. On Gemini, outside a jail (where a run removes escaping symlinks first), for
any other program and for a refused or failed command, every run is real.
"""

import hashlib
import os
import shlex
from pathlib import Path

from harness.plumbing.client import is_offline
from harness.tools import Workspace, jail_mode

_OUTPUTS: dict[tuple, str] = {}  # (command, jail, read-only paths, digest of the files) -> output


def files_digest(root: Path) -> str:
    """A digest of every file under `root`: names, contents, and where symlinks point."""
    digest = hashlib.sha256()
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        links = [d for d in dirs if os.path.islink(os.path.join(folder, d))]
        for name in sorted(files + links):
            path = os.path.join(folder, name)
            digest.update(os.path.relpath(path, root).encode("utf-8", "surrogateescape") + b"\0")
            if os.path.islink(path):
                digest.update(os.readlink(path).encode("utf-8", "surrogateescape"))
            else:
                digest.update(Path(path).read_bytes())
            digest.update(b"\0")
    return digest.hexdigest()


class ReusingWorkspace(Workspace):
    """A Workspace whose pytest runs, offline and jailed, answer from an earlier run on the same
    files (see the module's docstring); every other tool and command as in Workspace."""

    def _key(self, command) -> tuple | None:
        mode = jail_mode()
        if not (isinstance(command, str) and mode and is_offline()):
            return None
        try:
            if shlex.split(command)[:1] != ["pytest"]:
                return None
            return command, mode, self.read_only, files_digest(self.root)
        except (ValueError, OSError):  # unparsable, or a file that cannot be read: run it for real
            return None

    def run_command(self, command: str) -> str:
        key = self._key(command)
        if key in _OUTPUTS and self._refusal(command) is None:
            self.commands_this_turn += 1  # counted as the run it stands for
            return _OUTPUTS[key]
        output = super().run_command(command)
        if key is not None and not output.startswith("ERROR:"):
            _OUTPUTS[key] = output
        return output

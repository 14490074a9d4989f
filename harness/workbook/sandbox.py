"""Where one graded notebook runs: its own folder, a clean environment, and, as root, its own user.

    >>> with Sandbox.create(Path("/tmp/grading"), hide=[submissions, out_dir]) as box:   # doctest: +SKIP
    ...     env, command = box.env(), box.wrap(kernel_command)
    >>> enforcement()
    {'own folder holding only this notebook': 'enforced', ..., 'no network (loopback only)': 'enforced', ...}

What is enforced, and how:
- own folder: a fresh folder per notebook, holding only that notebook; HOME, TMPDIR and IPython's
  folder are inside it.
- environment: rebuilt from nothing (PATH, locale, the workbook's own settings); no API key, no
  instructor HOME, PYTHONHASHSEED fixed so a set's order is the same for every student.
- as root (`harness.plumbing.jail`, the jail the agent's commands run in too): a user of its own (a
  uid no account has, one per notebook graded at once); a view of the machine by allow-list: its own
  folder (writable), the workbook's code and Python (read-only), system programs; nothing else of
  the clone (no `.env`, no solutions, no submission, no gradebook folder); a private /tmp and
  /dev/shm (tmpfs, 64 MiB each) that vanish with it; no file over 256 MiB; its own pid namespace; no
  network. When the time is up every process of that uid is killed, so a detached process cannot
  outlive grading.
- not root: the kernel runs as the instructor; the folder, the environment and the killing (by a
  marker in each process's environment) still hold, the rest is reported "not enforced".
Memory and CPU are not capped here: give the grading machine (or container) its own limits.
"""

import os
import secrets
import shutil
import signal
import stat
import sys
import time
from contextlib import suppress
from pathlib import Path

from harness.plumbing import jail as jail_program
from harness.plumbing.jail import FIRST_UID, UIDS  # noqa: F401  (this module's names before)
from harness.plumbing.keys import KEY_VARIABLES
from harness.tools import jail_mode
from harness.workbook import ROOT

MAX_PROCESSES = 256  # per user: stops a fork bomb, leaves room for the kernel's threads
TMP_BYTES = 64 << 20  # the kernel's private /tmp and /dev/shm, each
KEPT_VARIABLES = ("PATH", "LANG", "LC_ALL", "TZ")
MARKER = "WORKBOOK_GRADING_RUN"  # in every graded process's environment, to find them again

# The pool of uids, shared with the agent's commands, lives in the jail (harness.plumbing.jail).
_free_uid, _claim, _uids_in_use, _uids_lock = (
    jail_program.claim_uid,
    jail_program.lock_uid,
    jail_program.uids_in_use,
    jail_program.uids_lock,
)
UID_LOCKS = Path(jail_program.UID_LOCKS)  # a Path here, as before the pool moved


def can_isolate() -> bool:
    """Whether this process may run kernels as other users in namespaces of their own."""
    return (
        os.geteuid() == 0
        and shutil.which("unshare") is not None
        and shutil.which("mount") is not None
    )


def kill_leftovers() -> int:
    """Kill the processes of every grading uid that no grader holds (a grader SIGKILLed mid-run
    leaves a student's detached processes behind); return how many. Only as root: without a uid
    of its own a leftover cannot be told from a process of the instructor's."""
    if not can_isolate():
        return 0
    killed = set()
    with _uids_lock:
        for uid in sorted(
            {uid for _, uid, _ in _processes() if uid in UIDS and uid not in _uids_in_use}
        ):
            fd = _claim(uid)
            if fd is None:
                continue  # a live grader's
            try:
                killed |= _kill_until_gone(lambda owner, _environ, uid=uid: owner == uid)
            finally:
                os.close(fd)
    return len(killed)


def kill_user_processes(uid: int) -> int:
    """Kill every process of the account `uid`, detached (setsid, double fork) or not; how many.
    The hub calls it when it stops a student's server: each student has an account of their own."""
    return len(_kill_until_gone(lambda owner, _environ: owner == uid))


def _kill_until_gone(chosen) -> set[int]:
    """SIGKILL every process (but this one) for which `chosen(uid, environ)` holds, again until
    none is left (a process may fork while we kill), for about a second at most; the pids killed."""
    killed = set()
    for _ in range(20):
        left = [
            pid for pid, uid, environ in _processes() if pid != os.getpid() and chosen(uid, environ)
        ]
        if not left:
            break
        for pid in left:
            with suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
                killed.add(pid)
        time.sleep(0.05)
    return killed


def _processes() -> list[tuple[int, int, bytes]]:
    """(pid, real uid, environment) of every process we may look at."""
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        with suppress(OSError):
            status = Path(entry.path, "status").read_text()
            uid = int(
                next(line for line in status.splitlines() if line.startswith("Uid:")).split()[1]
            )
            try:
                environ = Path(entry.path, "environ").read_bytes()
            except OSError:
                environ = b""
            found.append((int(entry.name), uid, environ))
    return found


class Sandbox:
    def __init__(
        self, folder: Path, uid: int | None, hide: list[Path], offline: bool | None, inherit: bool
    ):
        self.folder, self.uid, self.hide, self.offline, self.inherit = (
            folder,
            uid,
            hide,
            offline,
            inherit,
        )
        self.marker = secrets.token_hex(8)
        self.killed = 0

    @classmethod
    def create(
        cls, parent: Path, hide: list[Path] = (), offline: bool | None = None, inherit: bool = False
    ) -> "Sandbox":
        """A new folder under `parent` (which must exist); its own uid when running as root and not
        `inherit` (a student checking their own work keeps their environment and their user).
        `offline`: True forces the glass box, False keeps a key; None is offline unless `inherit`.
        """
        uid = _free_uid() if can_isolate() and not inherit else None
        folder = Path(parent) / secrets.token_hex(8)  # a name a classmate cannot guess
        (folder / "home").mkdir(parents=True)
        (folder / "tmp").mkdir()
        if uid is not None:
            for path in (folder, folder / "home", folder / "tmp"):
                os.chown(path, uid, uid)
            folder.chmod(0o700)
        return cls(folder, uid, [Path(p).resolve() for p in hide], offline, inherit)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.kill_all()
        if self.uid is not None:
            with _uids_lock:
                fd = _uids_in_use.pop(self.uid, None)
            if fd is not None:
                os.close(fd)  # closing the file releases its lock
        shutil.rmtree(self.folder, ignore_errors=True)

    def env(self) -> dict[str, str]:
        """The kernel's whole environment (the caller's, plus the workbook's settings, if
        `inherit`)."""
        env = (
            dict(os.environ)
            if self.inherit
            else {name: os.environ[name] for name in KEPT_VARIABLES if name in os.environ}
        )
        home = self.folder / "home"
        env.update(
            HOME=str(home),
            TMPDIR=str(self.folder / "tmp"),
            IPYTHONDIR=str(home / ".ipython"),
            MPLCONFIGDIR=str(home / ".matplotlib"),
            JUPYTER_CONFIG_DIR=str(home / ".jupyter"),
            JUPYTER_DATA_DIR=str(home / ".jupyter-data"),
            JUPYTER_RUNTIME_DIR=str(self.folder / "tmp"),
            PYTHONPATH=str(ROOT),
            PYTHONHASHSEED="0",
            PYTHONDONTWRITEBYTECODE="1",
            WORKBOOK_CHECKS_RAISE="0",
            **{MARKER: self.marker},
        )
        if self.offline is False and not self.inherit:
            env.update({name: os.environ[name] for name in KEY_VARIABLES if name in os.environ})
        elif self.offline or not self.inherit:
            env["WORKBOOK_OFFLINE"] = "1"
        return env

    def visible_paths(self) -> tuple[list[str], list[str]]:
        """What the kernel sees, by allow-list (`harness.plumbing.jail`): (writable, read-only). Its
        own folder, the workbook's code and Python; nothing else of the clone (no .env, no
        solutions, no classmate).
        """
        read = sorted({str((ROOT / "harness").resolve()), *jail_program.python_paths()})
        return [str(self.folder)], read

    def jail(self, read: list[str] | None = None, network: bool = True) -> dict | None:
        """What `harness.plumbing.jail.enter` takes to jail a process of this sandbox, or None
        where it runs unjailed. `read` replaces what the kernel reads (`visible_paths`), for the
        service that serves a graded function, which is jailed without a uid of its own too
        (`workbook check`: in a user namespace, where the machine allows it); `network=False`
        leaves not even loopback."""
        own_user = self.uid is not None
        if not own_user and (read is None or jail_mode() is None):
            return None
        write, read = self.visible_paths()[0], read if read is not None else self.visible_paths()[1]
        shown = [Path(p) for p in write + read]
        for hidden in self.hide:  # the allow-list must never show what the caller asked to keep out
            if any(hidden == p or p in hidden.parents for p in shown):
                raise RuntimeError(
                    f"the grading jail would show {hidden}; grade from a folder outside it"
                )
        offline = self.offline is not False  # --online grading must reach Gemini
        settings = {
            "write": write,
            "read": read,
            "cwd": str(self.folder),
            "tmp_bytes": TMP_BYTES,
            "loopback": network and offline,
            "network": network and not offline,
        }
        if own_user:
            return {**settings, "uid": self.uid, "gid": self.uid}
        return {**settings, "user_namespace": jail_mode() == "user namespace"}

    def wrap(
        self,
        command: list[str],
        connection_file: str,
        read: list[str] | None = None,
        network: bool = True,
    ) -> list[str]:
        """The command, run inside the jail (`jail`) when this process can isolate it."""
        settings = self.jail(read, network)
        if settings is None:
            return command
        words = [
            sys.executable,
            "-I",
            "-S",
            jail_program.__file__,
            "--cwd",
            settings["cwd"],
            "--tmp-bytes",
            str(TMP_BYTES),
        ]
        if "uid" in settings:
            words += [
                "--uid",
                str(self.uid),
                "--gid",
                str(self.uid),
                "--own",
                connection_file,
                "--max-processes",
                str(MAX_PROCESSES),
            ]
        words += ["--user-namespace"] if settings.get("user_namespace") else []
        words += (
            ["--loopback"] if settings["loopback"] else ["--network"] if settings["network"] else []
        )
        words += [word for path in settings["write"] for word in ("--write", path)]
        words += [word for path in settings["read"] for word in ("--read", path)]
        return [*words, "--", *command]

    def kill_all(self) -> None:
        """Kill every process this notebook started, detached or not (by uid, else by marker)."""
        tag = f"{MARKER}={self.marker}".encode()
        self.killed += len(
            _kill_until_gone(
                lambda uid, environ: (
                    (self.uid is not None and uid == self.uid) or tag in environ.split(b"\0")
                )
            )
        )


def enforcement(online: bool = False) -> dict[str, str]:
    """Each protection a graded notebook gets here and whether it holds, for the gradebook."""
    isolated = can_isolate()
    why_not = (
        "not enforced: the grader is not running as root, so the kernel runs as the instructor"
    )
    return {
        "own folder holding only this notebook": "enforced",
        "no API key in the environment, fresh HOME, PYTHONHASHSEED=0": "enforced",
        "own user per notebook (a uid no account has)": "enforced" if isolated else why_not,
        (
            "only its own folder, the workbook's code and Python visible (no submission, gradebook"
            " folder, HOME or .env); private /tmp and /dev/shm of 64 MiB"
        ): ("enforced" if isolated else why_not),
        "instructor's clone read-only": (
            "enforced"
            if isolated
            else (
                "by file permissions only" if not os.stat(ROOT).st_mode & stat.S_IWOTH else why_not
            )
        ),
        "no network (loopback only)": (
            "not enforced: --online grading calls Gemini"
            if online
            else "enforced"
            if isolated
            else why_not
        ),
        (
            "each exercise's function run apart from its check, in a process that sees the student"
            " surface only (no reference body, no check, no quiz), starts no process, and sends"
            " back plain data"
        ): (
            "enforced"
            if isolated
            else (
                "apart from its check and plain data only: enforced; the rest not enforced (not"
                " root: no jail, so the function runs as the instructor and could read the"
                " installed harness)"
            )
        ),
        "inputs each check draws from a seed of this run, which no student sees": "enforced",
        "every process killed at the end": (
            "enforced (by uid)"
            if isolated
            else (
                "by a marker in each process's environment (a process that clears its environment"
                " escapes)"
            )
        ),
        "memory and CPU limits": "not enforced here: give the grading machine or container its own",
    }

"""A command without the interpreter's start: a warm helper forks each jailed command, and each
run of pytest.

A run of the task's tests in a new interpreter spends most of its time starting up: 0.35-0.45 s
of CPU, against 0.12-0.15 s wall for the same run forked from a warm helper (measured here,
2026-12-01, benchmarks/outputs_digest.py and tests/test_tools.py compare the outputs), and one
agent run starts three. Any other command (a corpus-shell `grep`) started a Python interpreter
only to enter the jail and exec the program: about 25 ms of CPU of its 40-50 (here, 2026-12-03).
So `harness.tools` starts commands through this module: one helper process per kernel, started
with the scrubbed environment a command gets, loads the jail once, and pytest at its first test
run; for each command it forks a child that takes its own session (so the caller's process-group
kill reaches it and all it starts), stdin from /dev/null, stdout and stderr into the caller's
pipe, enters the command's jail, folder and environment, then becomes the program, as the jail's
own launcher would (`harness.plumbing.jail.become`), or, for `python -m pytest ARGS`, runs
pytest's `__main__` through runpy with `sys.path[0]` the folder, as `python -m` runs it. Nothing
of one run reaches the next: each is a fresh fork of a helper that has run nothing. Two
differences are left for pytest's runs: the runs forked from one helper share its hash seed, and
what the helper imported is frozen out of the garbage collector's passes (`gc.get_freeze_count()`
is not 0).

    helper = WarmStart(env, home)
    run = helper.start(["grep", "-rl", "x", "."], cwd, env, jail)  # like Popen(["grep", ...])
    run = helper.start(["-q"], cwd, env, jail, pytest=True)  # as `python -m pytest -q`
    run.stdout.read(), run.wait()  # the same output and exit code

The helper reads its requests on a Unix socket and ends when the process that started it does. This
file, run as a script, is the helper: it imports nothing of harness, which the child would inherit.
"""

import json
import os
import socket
import subprocess
import sys

_HELLO = b"ready"
STARTUP_TIMEOUT_SECONDS = (
    60  # it starts in well under a second; one that never says hello is given up
)


class _Child:
    """What `harness.tools._run` needs of a `subprocess.Popen`: pid, stdout, poll, wait,
    returncode."""

    def __init__(self, control: socket.socket, pid: int, stdout):
        self._control, self.pid, self.stdout, self.returncode = control, pid, stdout, None

    def poll(self):
        if self.returncode is None:
            self._control.setblocking(False)
            try:
                self._read_exit()
            except BlockingIOError:
                pass
            finally:
                self._control.setblocking(True)
        return self.returncode

    def wait(self):
        if self.returncode is None:
            self._read_exit()
        return self.returncode

    def _read_exit(self):
        message = self._control.recv(4096)
        # No answer: the helper died with the run, which then counts as killed.
        self.returncode = json.loads(message)["exit"] if message else -9


class WarmStart:
    """One helper process; `start` runs one command at a time through it (a lock is the
    caller's)."""

    def __init__(self, env: dict, home: str, launcher: tuple[str, ...] = ()):
        """Start the helper in `home` (which may be removed once this returns) with environment
        `env`, through `launcher` (words before the command, such as `unshare --net --`: every run
        inherits it).
        """
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.process = subprocess.Popen(
            [*launcher, sys.executable, __file__, str(theirs.fileno())],
            cwd=home,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            pass_fds=[theirs.fileno()],
            start_new_session=True,
        )
        theirs.close()
        self.control, self.owner = ours, os.getpid()
        # socket.timeout is an OSError: the caller falls back
        self.control.settimeout(STARTUP_TIMEOUT_SECONDS)
        # the jail failed to load: the caller falls back to a new interpreter
        if self.control.recv(16) != _HELLO:
            self.close()
            raise OSError("the warm helper did not start")
        self.control.settimeout(None)

    def close(self) -> None:
        """End the helper (it ends on its own when this process does; this also waits for it)."""
        self.control.close()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:  # a helper that will not end is killed: it holds no state
            self.process.kill()

    def alive(self) -> bool:
        return self.owner == os.getpid() and self.process.poll() is None

    def start(
        self, args: list, cwd, env: dict, jail: dict | None = None, pytest: bool = False
    ) -> _Child:
        """Run the program `args` (found on the PATH of `env`), or `python -m pytest args` if
        `pytest`; `jail`: what `harness.plumbing.jail.enter` takes, the run then happens in that
        jail."""
        read_end, write_end = os.pipe()
        try:
            request = {"args": list(args), "cwd": str(cwd), "env": env, "jail": jail}
            request = json.dumps({**request, "pytest": pytest}).encode()
            socket.send_fds(self.control, [request], [write_end])
        finally:
            # the child holds the only write end: end of file means it and its children closed it
            os.close(write_end)
        reply = self.control.recv(4096)
        if not reply:
            os.close(read_end)
            raise OSError("the warm helper ended")
        return _Child(
            self.control, json.loads(reply)["pid"], os.fdopen(read_end, "rb", buffering=0)
        )


def _become(request: dict, out: int, ready: int, confine) -> None:
    """In the forked child: turn into the request's program, or `python -m pytest ARGS`, run in
    its jail, folder and environment."""
    os.setsid()
    # the helper waits for this: only now can the caller's process-group kill reach us
    os.close(ready)
    stdin = os.open(os.devnull, os.O_RDONLY)
    os.dup2(stdin, 0)
    os.dup2(out, 1)
    os.dup2(out, 2)
    os.close(stdin)
    os.close(out)
    # from here on, only what the jail shows (the helper has no thread: it may unshare)
    if request["jail"]:
        confine.enter(**request["jail"])
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    if not request["pytest"]:
        confine.become(request["args"])
    _run_pytest(request)


def _run_pytest(request: dict) -> None:
    """The rest of `python -m pytest ARGS`, in the child, already in its jail, folder and
    environment."""
    import atexit
    import runpy
    import tempfile

    tempfile.tempdir = None  # TMPDIR is read again
    sys.path[0] = request["cwd"]  # as `python -m` puts the current folder first
    sys.argv = ["-m", *request["args"]]  # runpy puts the module's path first, as `python -m` does
    code = 1
    try:
        # what `python -m pytest` runs
        runpy.run_module("pytest", run_name="__main__", alter_sys=True)
        code = 0
    except SystemExit as stop:  # how pytest's __main__ ends, as the interpreter would read it
        code = stop.code if isinstance(stop.code, int) else 0 if stop.code is None else 1
        if not isinstance(stop.code, (int, type(None))):
            print(stop.code, file=sys.stderr)
    except BaseException:
        import traceback

        traceback.print_exc()
    finally:
        atexit._run_exitfuncs()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def _confine():
    """harness/plumbing/jail.py, loaded by path under a private name: a task module called `jail`
    stays the task's."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "_workbook_jail", os.path.join(os.path.dirname(__file__), "jail.py")
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _warm_up_pytest() -> None:
    """Do, once and before any fork, what every run of pytest would otherwise do again: import
    pytest and its builtin plugins (pytest imports most of them only as a run configures), and fill
    `inspect`'s table of which file each loaded module came from (a run that reports a failure
    walks every module in `sys.modules` to make it). That table is only a cache: a run fills in the
    modules it loads. Measured here on the task's `pytest -q` (2026-12-03, 15 forks each, medians):
    79 ms of CPU a run with pytest alone imported, 64 with the plugins or the table, 50 with both.
    """
    import gc
    import importlib
    import inspect

    # pytest ends each run with a full garbage collection, which would walk every object imported
    # here again in every child: frozen, they are left out (and their pages stay shared with this
    # helper). 30 runs of a two-test file took 3.9 s of CPU against 5.4 s unfrozen (whole process,
    # medians of 7, here 2026-12-01). The import runs with the collector paused, as
    # harness.plumbing.startup's collector_paused does (this file imports nothing of harness).
    gc.disable()
    import pytest  # noqa: F401  (the import every run would otherwise repeat)
    from _pytest.config import default_plugins

    for name in default_plugins:
        importlib.import_module(f"_pytest.{name}")
    # A code object of no file makes it walk them all. Its name is absolute: for a relative one,
    # inspect asks for the current folder, which the helper's may no longer be (it starts in a
    # temporary folder), and gives up before filling the table.
    inspect.getmodule(compile("", "/<warm>", "exec"))
    gc.collect()
    gc.freeze()
    gc.enable()


def _serve(control: socket.socket) -> None:
    """The helper's loop: one request at a time, answered with the child's pid, then its exit
    code."""
    confine = _confine()  # loaded once, before any fork
    control.send(_HELLO)
    while True:
        try:
            message, fds, _, _ = socket.recv_fds(control, 1 << 20, 1)
        except OSError:
            return
        if not message:
            return  # the kernel that started us is gone
        request, out = json.loads(message), fds[0]
        if request["pytest"] and "pytest" not in sys.modules:
            try:  # at the first test run: a helper that runs none never loads it
                _warm_up_pytest()
            except ImportError:  # the run fails as `python -m pytest` would, and says why
                pass
        ready_read, ready_write = os.pipe()
        pid = os.fork()
        if pid == 0:
            control.close()
            os.close(ready_read)
            _become(request, out, ready_write, confine)
        os.close(out)
        os.close(ready_write)
        os.read(ready_read, 1)  # end of file once the child has its own session
        os.close(ready_read)
        control.send(json.dumps({"pid": pid}).encode())
        _, status = os.waitpid(pid, 0)
        control.send(json.dumps({"exit": os.waitstatus_to_exitcode(status)}).encode())


if __name__ == "__main__":
    _serve(socket.socket(fileno=int(sys.argv[1])))

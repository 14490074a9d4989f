"""Check rebuilt exercise functions: the check in the grader's checker, the function in a jail of
its own.

    >>> jobs = [Job("3.1", "build_context", rebuilt.source, timeout=60,
    ...             lesson="03_budgeted_assembly")]  # doctest: +SKIP
    >>> verify(jobs, box, surface=boot, seed=1234)                                       # doctest: +SKIP
    [{'status': 'passed', 'rule': '...', 'hint': '', 'rules': [...], 'reached': []}]

`verify` starts the checker, `python -m harness.workbook.verify`, in a clean environment (no key,
offline, PYTHONHASHSEED=0): it holds the checks and the references and never runs a line of the
student's. The checker forks the service (`service.py`, see `Service`) into the jail (`box`, as root
a uid of its own; `surface.read_only_paths`: the student surface and Python, nothing else), which
runs the rebuilt cells and serves the function; the two talk through one channel of plain data
(`channel.py`). For each job the checker forks a child that

- sends the job; the service forks a child of its own that runs the cells and takes the function;
- runs `harness.checks.run_check` on a stand-in that sends each call's arguments through the
  channel and builds the return value from plain data (so a float subclass, a patched `__eq__` or
  a forged result never reaches the check), then, if the check drew generated inputs and passed,
  runs it again on inputs from `seed`, a number the student's side never sees;
- answers the service's requests: a callable the check passed, `mine("N.M", f)` (the function if
  N.M passed earlier in this notebook, else the reference), and the harness's reference of
  another exercise, run here; the reference of the exercise being graded is refused, and the
  request is the evidence ("reached": the exercise is `tampered`).

A job's `timeout` is CPU-seconds of the function (the service's child gets SIGXCPU then): that
exercise gets "did not finish in N s", however loaded the machine is. A child of the checker still
running WALL times as long (wall-clock) is killed, with the service; a new service replaces one
that did not end its job cleanly, so the next exercise starts clean.
"""

import inspect
import json
import os
import select
import signal
import subprocess
import sys
import time
from dataclasses import asdict, dataclass

from harness.workbook.channel import ChannelClosed, Peer, error_data, function_path, receive

FIELD_LIMIT = 4_000  # characters kept of any text a child reports
SERVICE_START = 120  # seconds the service may take to start (the SDK's import, on a loaded machine)
# A job's `timeout` is CPU-seconds of the student's function (the service's RLIMIT_CPU): an endless
# loop ends the same on an idle machine and a loaded one. Wall-clock limits, this many times longer,
# only catch a process stuck without using CPU (a sleep, a read that never ends).
WALL = 10


class OutOfTime(BaseException):
    """The function used its job's CPU-seconds (a BaseException: no check's `except` takes it)."""


def _ended(reply: dict) -> None:
    """Raise what a service that ended instead of answering means: out of time, or a crash."""
    if reply.get("status") == -signal.SIGXCPU:
        raise OutOfTime()
    raise ChannelClosed(
        "the process serving your function ended (os._exit, a crash, or out of memory)"
    )


@dataclass
class Job:
    exercise: str
    name: str
    source: str
    timeout: float
    setup: (
        str
        # the lesson's import cell: it registers exercises the harness does not know (test lessons)
    ) = ""
    lesson: str = ""  # the notebook's lesson: `mine` answers from the exercises graded before in it


class Service:
    """The jailed service, as the checker sees it: its process and the two ends of the channel.

    The first one of a checker is forked from it before it imports the checks or reads the hidden
    seed (so the SDK's import, seconds, is paid once for both, and the service's memory holds
    neither); it then enters the jail, forgets the grader's `harness` and imports the student
    surface's. One that replaces it (after a job that did not end cleanly) is started afresh."""

    def __init__(self, pid: int, inp: int, out: int, wait, uid: int | None):
        self.pid, self.inp, self.out, self._wait, self.uid = pid, inp, out, wait, uid
        try:
            started = select.select([self.inp], [], [], SERVICE_START)[0] != []
            self.ready = started and receive(self.inp)["op"] == "ready"
        except ChannelClosed:
            self.ready = False

    @classmethod
    def forked(cls, spec: dict) -> "Service":
        to_service, from_service = os.pipe(), os.pipe()
        pid = os.fork()
        if pid == 0:
            try:
                os.setsid()  # a group of its own, which `stop` kills whole
                os.dup2(to_service[0], 0)
                os.dup2(from_service[1], 1)
                # never the checker's stderr: the grader waits on it
                os.dup2(os.open(os.devnull, os.O_WRONLY), 2)
                os.closerange(3, 1 << 16)
                _become_the_service(spec)
            finally:
                os._exit(1)
        os.close(to_service[0])
        os.close(from_service[1])
        return cls(pid, from_service[0], to_service[1], lambda: os.waitpid(pid, 0), _uid(spec))

    @classmethod
    def started(cls, spec: dict) -> "Service":
        process = subprocess.Popen(
            spec["command"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=spec["env"],
            cwd=spec["cwd"],
            start_new_session=True,
        )
        return cls(
            process.pid, process.stdout.fileno(), process.stdin.fileno(), process.wait, _uid(spec)
        )

    def stop(self) -> None:
        """Kill the service and whatever runs in its jail: the jail's first process drops its
        parent-death signal when it changes user, so killing the process outside is not enough."""
        try:
            os.killpg(self.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self._wait()
        if self.uid is not None:
            from harness.workbook.sandbox import kill_user_processes

            kill_user_processes(self.uid)


def _uid(spec: dict) -> int | None:
    return (spec.get("jail") or {}).get("uid")


def _become_the_service(spec: dict) -> None:
    """In the forked child: into the jail, then the student surface's `harness`, never the
    grader's."""
    import importlib
    import resource

    from harness.plumbing import jail

    if spec["jail"]:
        jail.enter(**spec["jail"])
    else:
        os.chdir(spec["cwd"])
    if spec.get("processes"):
        resource.setrlimit(resource.RLIMIT_NPROC, (spec["processes"], spec["processes"]))
    for name in [m for m in sys.modules if m == "harness" or m.startswith("harness.")]:
        del sys.modules[name]
    sys.meta_path[:] = [f for f in sys.meta_path if "editable" not in type(f).__module__]
    sys.path[:] = spec["path"]
    sys.path_importer_cache.clear()
    importlib.invalidate_caches()
    importlib.import_module("harness.workbook.service").main()


def _stand_in(peer: Peer, name: str, signature: list | None, state: dict):
    """What the check is given: a function that calls the student's through the channel."""

    def through_the_channel(*args, **kwargs):
        if state.get("gone"):
            raise ChannelClosed("the process serving your function has ended")
        try:
            reply = peer.request(peer.calling("fn", args, kwargs))
        except ChannelClosed:
            state["gone"] = True
            raise
        if reply["op"] == "ended":
            state["gone"] = True
            _ended(reply)
        return peer.outcome(reply, args, kwargs)

    through_the_channel.__name__ = through_the_channel.__qualname__ = name
    try:
        parameters = [
            inspect.Parameter(
                str(p["name"]),
                inspect._ParameterKind(p["kind"]),
                default=... if p["default"] else inspect.Parameter.empty,
            )
            for p in signature or []
        ]
        through_the_channel.__signature__ = (
            inspect.Signature(parameters) if signature is not None else None
        )
    except (TypeError, ValueError, KeyError):
        pass  # a signature that is not one: the calls decide
    return through_the_channel


def _checked(exercise: str, fn, seed: int | None, timeout: float) -> dict:
    """run_check on SEED's inputs, then, if it passed having drawn inputs, on `seed`'s. Its own time
    limit is a wall-clock backstop: the function's CPU is the service's to limit."""
    import harness.checks as checks
    from harness.checks import compare

    limit = WALL * max(checks.exercises()[exercise].time_limit, timeout)
    with compare.hidden_seed(None):
        result = checks.run_check(exercise, fn, time_limit=limit).to_dict()
        drew = compare.drew()
    if result["status"] == "passed" and drew and seed is not None:
        with compare.hidden_seed(seed):
            hidden = checks.run_check(exercise, fn, time_limit=limit).to_dict()
        if hidden["status"] != "passed":
            hidden["hint"] = (
                (hidden["hint"] + " " if hidden["hint"] else "")
                + "(This input was drawn at grading time: an answer that works only on the inputs"
                " its check tried at home does not pass.)"
            )
            return hidden
    return result


def check_one(job: dict, service: Service, verdicts: dict, seed: int | None) -> dict:
    """The result of one job, checked in this process (a forked child of the checker)."""
    import harness.checks as checks

    if job["exercise"] not in checks.exercises() and job.get("setup"):
        exec(
            compile(job["setup"], "<the lesson's import cell>", "exec"), {"__name__": "__lesson__"}
        )
    known = checks.exercises()
    references = {
        e.reference: checks.reference(i)
        for i, e in known.items()
        if e.reference.startswith("harness.")
    }
    graded, reached = known[job["exercise"]].reference, []

    def answer(request: dict) -> dict:
        # the verdict of an exercise checked above in this notebook; none: theirs
        if request["op"] == "mine":
            other = known.get(str(request.get("exercise")))
            passed = (
                verdicts.get((job.get("lesson"), request.get("exercise")), "passed") == "passed"
            )
            yours = other is None or (passed and other.reference != graded)
            return {"op": "return", "yours": yours, "reference": other and other.reference}
        target = request.get("target") if isinstance(request.get("target"), dict) else {}
        if "reference" in target:
            if target["reference"] == graded:
                line = request.get("line")
                reached.append(line if type(line) is int else 0)
                return {
                    "op": "raise",
                    "error": error_data(
                        RuntimeError(
                            "the harness's reference for this exercise is not available while it is"
                            " graded"
                        )
                    ),
                }
            fn = references.get(target["reference"])
        else:
            fn = peer.handles.get(target.get("handle"))
        if fn is None:
            return {
                "op": "raise",
                "error": error_data(LookupError("nothing to call by that name here")),
            }
        return peer.serve(fn, request)

    def by_path(fn) -> str | None:
        path = function_path(fn)
        return path if path and path not in references else None

    peer = Peer(
        service.inp,
        service.out,
        answer,
        exact=False,
        from_checker=False,
        by_path=by_path,
        caught=Exception,
    )
    state, too_long = (
        {},
        {"status": "failed", "rule": f"did not finish in {job['timeout']:g} s (an endless loop?)"},
    )
    job_message = {"op": "job", "source": job["source"], "name": job["name"], "cpu": job["timeout"]}
    try:
        loaded = peer.request(job_message)
        if loaded["op"] == "ended":
            state["gone"] = True
            _ended(loaded)
        if loaded.get("error"):
            result = {
                "status": "error",
                "rule": f"the cells defining {job['name']} raised {loaded['error']}",
            }
        else:
            fn = _stand_in(peer, job["name"], loaded.get("signature"), state)
            result = _checked(job["exercise"], fn, seed, job["timeout"])
    except OutOfTime:
        result = too_long
    except ChannelClosed as error:
        state["gone"] = True
        result = {
            "status": "error",
            "rule": f"the function's process ended while its cells ran ({error})",
        }
    result["reached"] = sorted(set(reached))
    result["clean"] = not state.get("gone") and peer.request({"op": "end"})["op"] == "ended"
    return result


def _child(job: dict, service: Service, verdicts: dict, seed: int | None, write_fd: int) -> None:
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    try:
        result = check_one(job, service, verdicts, seed)
    except BaseException as error:  # never a traceback: one line the grader can show
        result = {
            "status": "error",
            "rule": f"the check could not run ({type(error).__name__}: {error})",
        }
    os.write(write_fd, (json.dumps(result, default=str) + "\n").encode())
    os._exit(0)


def run_job(job: dict, service: Service, verdicts: dict, seed: int | None) -> dict:
    """Fork, check, and wait at most the job's timeout."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        _end_with_parent()
        os.close(read_fd)
        _child(job, service, verdicts, seed, write_fd)
    os.close(write_fd)
    data, deadline = b"", time.monotonic() + WALL * job["timeout"] + 60
    while not data.endswith(b"\n") and (left := deadline - time.monotonic()) > 0:
        if not select.select([read_fd], [], [], left)[0]:
            break
        chunk = os.read(read_fd, 1 << 16)
        if not chunk:
            break
        data += chunk
    os.close(read_fd)
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    os.waitpid(pid, 0)
    if not data.endswith(b"\n"):
        # a function that waits without using CPU (a sleep), or a stuck check
        if time.monotonic() >= deadline:
            return {
                "status": "failed",
                "rule": f"did not finish in {WALL * job['timeout'] + 60:g} s (stuck?)",
            }
        return {"status": "error", "rule": "the check's process ended before reporting"}
    return json.loads(data)


def _end_with_parent() -> None:
    """Be killed when the process that started this one ends: the checker runs outside any jail,
    and a grader killed mid-run must leave nothing of its own behind (the service's jail ends then
    too: its first process watches its parent)."""
    import ctypes

    from harness.plumbing.jail import PR_SET_PDEATHSIG

    parent = os.getppid()
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # it ended before the line above
        os._exit(1)


def serve(spec: dict) -> None:
    """Serve the jobs of {"jobs", "seed"} read on stdin, the function's service started as `spec`
    says; write one JSON line per job on stdout, in order."""
    _end_with_parent()
    import google.genai.interactions
    import google.genai.types  # noqa: F401  (the service needs them too: imported once, before its fork)

    service = Service.forked(spec)
    # after the fork: the service never holds the checks, nor the seed
    import harness.checks as checks

    request = json.loads(sys.stdin.read())
    checks.exercises()  # loaded once, before any fork
    verdicts = {}
    for job in request["jobs"]:
        if service is None:
            service = Service.started(spec)
        if not service.ready:
            result = {
                "status": "error",
                "rule": "the process that serves the function did not start",
            }
        else:
            result = run_job(job, service, verdicts, request.get("seed"))
        # it may still be running the function: a fresh one for the next job
        if not result.pop("clean", False):
            service.stop()
            service = None
        verdicts[(job.get("lesson"), job["exercise"])] = result.get("status")
        print(json.dumps(result), flush=True)
    if service is not None:
        service.stop()


def _clean(result, job: Job) -> dict:
    """A child's report, taken as text of bounded size: anything else is an error."""
    if not isinstance(result, dict) or not isinstance(result.get("status"), str):
        return {
            "status": "error",
            "rule": f"the check of {job.exercise} reported something unreadable",
        }

    def text(value) -> str:
        return str(value)[:FIELD_LIMIT]

    rules = result.get("rules") if isinstance(result.get("rules"), list) else []
    return {
        "status": text(result["status"]),
        "rule": text(result.get("rule", "")),
        "hint": text(result.get("hint", "")),
        "rules": [
            {"name": text(r.get("name", "")), "passed": r.get("passed") is True}
            for r in rules[:200]
            if isinstance(r, dict)
        ],
        "reached": [int(n) for n in result.get("reached", []) if isinstance(n, int)][:50],
    }


def verify(
    jobs: list[Job], box, service: dict, seed: int | None = None, python: str = sys.executable
) -> list[dict]:
    """One result per job, from a checker run with `box`'s environment; `service` is how the checker
    starts the jailed service ({"command", "env", "cwd"}: `runner.service_spec`)."""
    if not jobs:
        return []
    request = {"jobs": [asdict(j) for j in jobs], "seed": seed}
    total = sum(WALL * job.timeout + 65 for job in jobs) + SERVICE_START + 60
    try:
        done = subprocess.run(
            [python, "-m", "harness.workbook.verify", json.dumps(service)],
            input=json.dumps(request),
            capture_output=True,
            text=True,
            timeout=total,
            env=box.env(),
            cwd=box.folder,
        )
        lines = done.stdout.splitlines()
    except subprocess.TimeoutExpired:
        lines = []
    results = []
    for index, job in enumerate(jobs):
        try:
            results.append(_clean(json.loads(lines[index]), job))
        except (IndexError, ValueError, TypeError, AttributeError):
            results.append(
                {
                    "status": "error",
                    "rule": f"the grader's checking process stopped before {job.exercise}",
                    "hint": "",
                    "rules": [],
                    "reached": [],
                }
            )
    return results


if __name__ == "__main__":
    serve(json.loads(sys.argv[1]))

"""The student's function, served from a jail: the rebuilt cells run here, their check in the
grader.

The checker (`verify.py`) forks itself into the jail and runs `main` (or, to replace one, starts
`boot.py`, which `surface.py` writes), with the student surface as the only `harness` it can
import: the course's code with every exercise's reference body replaced by `forward`, and no
checks nor quizzes. It talks to the checker through stdin and stdout only, in the messages of
`channel.py`:

    checker -> here    {"op": "job", "source", "name", "cpu"}   a child is forked for the job
    here -> checker    {"op": "loaded", "signature"}        (or "error": the cells raised, no function)
    checker -> here    {"op": "call", "target": "fn", "args", "kwargs"}
    here -> checker    {"op": "return", "value", "changed"} or {"op": "raise", "error"}
    checker -> here    {"op": "end"}
    here -> checker    {"op": "ended", "status"}            once the child is gone

While it waits for a reply, the child may ask the checker to call a callable the check passed (a
handle), to run the harness's reference of another exercise (`forward`: the one being graded is
refused, and its request is the evidence) or which function `mine("N.M", f)` hands back. The child
cannot start a process or a thread (RLIMIT_NPROC 0), has `MEMORY` bytes and the job's "cpu" seconds
of CPU (then SIGXCPU ends it: how long an endless loop runs does not depend on the machine's load),
and prints into /dev/null. Nothing it sends is trusted: the checker builds plain values from it
(`channel.decode`).
"""

import math
import os
import resource
import sys

from harness.workbook.channel import ChannelClosed, Peer, receive, send

NOTEBOOK = "<the student's notebook>"  # the file name the rebuilt cells are compiled under
MEMORY = 3 << 30  # bytes of address space the student's function may use
# A child may start no thread, and OpenBLAS, failing to start its pool when numpy is imported
# (lesson 12's cells import harness.retrieval), raises SIGINT: 12.2 came out 'error' with a
# KeyboardInterrupt. Its libraries read these when loaded, so one thread each, set before any load.
ONE_THREAD = {name: "1" for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")}
_peer: Peer | None = None  # the child's end of the channel, for `forward` and `mine`


def _line() -> int:
    """The notebook line the running code was called from (0 when none is on the stack)."""
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename != NOTEBOOK:
        frame = frame.f_back
    return frame.f_lineno if frame is not None else 0


def forward(path: str, *args, **kwargs):
    """The body of every exercise reference in the student surface: the checker runs it, if it
    may."""
    if _peer is None:
        raise NotImplementedError(f"{path} is the harness's reference: it runs only in the grader")
    return _peer.call({"reference": path}, args, kwargs, line=_line())


def mine(exercise_id: str, fn):
    """The lesson's `f = mine("N.M", f)`: `fn` if exercise N.M passed in this notebook, else the
    harness's reference (run by the checker, through `forward`)."""
    if _peer is None:
        return fn
    reply = _peer.request({"op": "mine", "exercise": str(exercise_id)})
    path = reply.get("reference") if reply.get("op") == "return" else None
    if not isinstance(path, str) or reply.get("yours") is True:
        return fn
    module, _, name = path.rpartition(".")
    return getattr(__import__(module, fromlist=[name]), name)


def _signature(fn) -> list[dict] | None:
    import inspect

    try:
        parameters = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return None
    return [
        {"name": p.name, "kind": int(p.kind), "default": p.default is not p.empty}
        for p in parameters
    ]


def _job(message: dict, inp: int, out: int) -> None:
    """In the forked child: run the cells, then serve the function until told to end."""
    global _peer
    resource.setrlimit(resource.RLIMIT_NPROC, (0, 0))  # no process, no thread: fork and clone fail
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    # SIGXCPU then: an endless loop, on any load
    cpu = max(1, math.ceil(float(message.get("cpu", 60))))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    functions: dict[str, object] = {}

    def answer(request: dict) -> dict:
        target = request.get("target")
        fn = (
            functions.get("fn")
            if target == "fn"
            else _peer.handles.get((target or {}).get("handle"))
        )
        if request.get("op") != "call" or not callable(fn):
            return {
                "op": "raise",
                "error": {
                    "type": "LookupError",
                    "module": "builtins",
                    "message": f"nothing to call for {str(target)[:40]}",
                },
            }
        return _peer.serve(fn, request)

    _peer = Peer(inp, out, answer, exact=True, from_checker=True)
    namespace = {"__name__": "__notebook__"}
    try:
        exec(compile(str(message["source"]), NOTEBOOK, "exec"), namespace)
        fn = namespace.get(str(message["name"]))
        if not callable(fn):
            raise NameError(f"the cells define no function {message['name']}")
        functions["fn"] = fn
        send(out, {"op": "loaded", "signature": _signature(fn)})
    except BaseException as error:  # the student's cells: whatever they raise is theirs to read
        send(out, {"op": "loaded", "error": f"{type(error).__name__}: {str(error)[:1000]}"})
    while True:
        request = receive(inp)
        if request["op"] == "end":
            os._exit(0)
        send(out, answer(request))


def main() -> None:
    """The service's first process: warm (the SDK imported once), it forks one child per job."""
    os.environ.update(ONE_THREAD)
    inp, out = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):  # a print of the student's never reaches the channel by accident
        os.dup2(null, fd)
    import google.genai.types  # noqa: F401  (every child finds it loaded: its import costs seconds)

    send(out, {"op": "ready"})
    while True:
        try:
            message = receive(inp)
        except ChannelClosed:
            os._exit(0)
        if message["op"] != "job":
            os._exit(0)
        child = os.fork()
        if child == 0:
            try:
                _job(message, inp, out)
            finally:
                os._exit(1)
        _, status = os.waitpid(child, 0)
        send(out, {"op": "ended", "status": os.waitstatus_to_exitcode(status)})

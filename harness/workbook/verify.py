"""Check rebuilt exercise functions in a fresh interpreter, confined, each in a process of its own with a time limit.

    >>> jobs = [Job("3.1", "build_context", rebuilt.source, timeout=60)]                # doctest: +SKIP
    >>> verify(jobs, box)                                                                 # doctest: +SKIP
    [{'status': 'passed', 'rule': '...', 'hint': '', 'rules': [...], 'reached': []}]

`verify` starts `python -m harness.workbook.verify` through the sandbox (`sandbox.py`: own user,
no network, the clone read-only) and sends it the jobs. That interpreter holds only the workbook
and its checks: no student's kernel, no notebook. For each job it forks a child, which

- wraps the exercise's reference so that a call to it from under the notebook's code is recorded
  with the line it came from, however the code found it (an import, `sys.modules`, `importlib`,
  `harness.checks.reference`, `mine`, a `getattr` chain) -> "reached";
- runs the rebuilt source (`rebuild.py`) under the file name NOTEBOOK, takes the function, refuses
  one not defined there (the reference itself, something imported) and names from
  `harness.checks` that are not plain constants, follows each module attribute chain of the code
  (`context.importlib...`) and reports one that ends in a denied module or the reference;
- runs `harness.checks.run_check` on it and writes the result as one JSON line.

The parent kills a child still running after the job's `timeout`: that exercise gets "did not
finish in N s" and the next one starts in a fresh child, so nothing one exercise's code does
(a patched builtin, a profiler, a changed constant) reaches another's check.
"""
import ast
import json
import os
import resource
import select
import signal
import subprocess
import sys
import time
import types
from dataclasses import asdict, dataclass

NOTEBOOK = "<the student's notebook>"
CHILD_MEMORY = 3 << 30   # bytes of address space a check may use
FIELD_LIMIT = 4_000      # characters kept of any text a child reports
IMMUTABLE = (int, float, complex, str, bytes, bool, type(None), tuple, frozenset, range)


@dataclass
class Job:
    exercise: str
    name: str
    source: str
    timeout: float
    setup: str = ""  # the lesson's import cell: it registers exercises the harness does not know (test lessons)


def _watch_reference(reference, reached: list[int]) -> None:
    """Make every alias of `reference` note the notebook line it was called from, then do its work."""
    if not isinstance(reference, types.FunctionType) or reference.__closure__:
        return
    original = types.FunctionType(reference.__code__, reference.__globals__, reference.__name__,
                                  reference.__defaults__, reference.__closure__)
    original.__kwdefaults__ = reference.__kwdefaults__

    def noted(*args, **kwargs):
        frame = sys._getframe(1)
        while frame is not None:
            if frame.f_code.co_filename == NOTEBOOK:
                reached.append(frame.f_lineno)
                break
            frame = frame.f_back
        return original(*args, **kwargs)

    slot = "__workbook_reference_watch__"
    reference.__globals__[slot] = noted
    trampoline = compile(f"def _(*args, **kwargs):\n    return {slot}(*args, **kwargs)", reference.__code__.co_filename, "exec")
    reference.__code__ = next(c for c in trampoline.co_consts if isinstance(c, types.CodeType))
    reference.__defaults__ = reference.__kwdefaults__ = None
    reference.__wrapped__ = original  # inspect.signature still shows the real parameters


def _module_chains(namespace: dict, source: str, reference) -> list[tuple[int, str]]:
    """(line, why) for each `name.attr...` of the code that walks through modules into a denied one or the reference."""
    from harness.workbook.guard import chains, denied

    found = []
    for node, root, names in chains(ast.parse(source)):
        value = namespace.get(root)
        for name in names:
            if not isinstance(value, types.ModuleType):
                break
            value = getattr(value, name, None)
            if value is reference or (isinstance(value, types.ModuleType) and denied(value.__name__)):
                found.append((node.lineno, f"reaches {getattr(value, '__name__', name)} through module attributes"))
                break
    return found


def _from_checks(namespace: dict, source: str) -> list[tuple[int, str]]:
    """(line, why) for each name imported from harness.checks that is not a plain constant."""
    found = []
    for node in ast.parse(source).body:
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("harness.checks"):
            for alias in node.names:
                value = namespace.get(alias.asname or alias.name)
                if not isinstance(value, IMMUTABLE) and alias.name != "mine":
                    found.append((node.lineno, f"imports {alias.name} from {node.module}, the checks' own code"))
    return found


def check_one(job: dict) -> dict:
    """The result of one job, run in this process (a forked child)."""
    import harness.checks as checks

    if job["exercise"] not in checks.exercises() and job.get("setup"):
        exec(compile(job["setup"], "<the lesson's import cell>", "exec"), {"__name__": "__lesson__"})
    reference = checks.reference(job["exercise"])
    reached: list[int] = []
    _watch_reference(reference, reached)
    namespace = {"__name__": "__notebook__"}
    try:
        exec(compile(job["source"], NOTEBOOK, "exec"), namespace)
    except BaseException as error:  # the student's cells, run again: any failure is theirs
        return {"status": "error", "rule": f"the cells defining {job['name']} raised {type(error).__name__}: {error}"}
    fn = namespace.get(job["name"])
    found = _module_chains(namespace, job["source"], reference) + _from_checks(namespace, job["source"])
    if not isinstance(fn, types.FunctionType) or fn.__code__.co_filename != NOTEBOOK:
        where = getattr(fn, "__module__", None) or type(fn).__name__
        found.append((0, f"{job['name']} is not a function defined in the notebook (it comes from {where})"))
    result = checks.run_check(job["exercise"], fn).to_dict()
    result["reached"] = sorted(set(reached))
    result["found"] = found
    return result


def _child(job: dict, write_fd: int) -> None:
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    resource.setrlimit(resource.RLIMIT_AS, (CHILD_MEMORY, CHILD_MEMORY))
    try:
        result = check_one(job)
    except BaseException as error:  # never a traceback: one line the grader can show
        result = {"status": "error", "rule": f"the check could not run ({type(error).__name__}: {error})"}
    os.write(write_fd, (json.dumps(result, default=str) + "\n").encode())
    os._exit(0)


def run_job(job: dict) -> dict:
    """Fork, check, and wait at most the job's timeout."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_fd)
        _child(job, write_fd)
    os.close(write_fd)
    data, deadline = b"", time.monotonic() + job["timeout"]
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
        if time.monotonic() >= deadline:
            return {"status": "failed", "rule": f"did not finish in {job['timeout']:g} s (an endless loop?)"}
        return {"status": "error", "rule": "the check's process ended before reporting (the function ended Python?)"}
    return json.loads(data)


def serve() -> None:
    """Read jobs (a JSON list) on stdin; write one JSON line per job on stdout, in order."""
    import harness.checks as checks

    checks.exercises()  # loaded once, before any fork
    for job in json.loads(sys.stdin.read()):
        print(json.dumps(run_job(job)), flush=True)


def _clean(result, job: Job) -> dict:
    """A child's report, taken as text of bounded size: anything else is an error."""
    if not isinstance(result, dict) or not isinstance(result.get("status"), str):
        return {"status": "error", "rule": f"the check of {job.exercise} reported something unreadable"}
    def text(value) -> str:
        return str(value)[:FIELD_LIMIT]
    rules = result.get("rules") if isinstance(result.get("rules"), list) else []
    return {"status": text(result["status"]), "rule": text(result.get("rule", "")), "hint": text(result.get("hint", "")),
            "rules": [{"name": text(r.get("name", "")), "passed": r.get("passed") is True} for r in rules[:200] if isinstance(r, dict)],
            "reached": [int(n) for n in result.get("reached", []) if isinstance(n, int)][:50],
            "found": [(int(n), text(why)) for n, why in result.get("found", [])
                      if isinstance(n, int) and isinstance(why, str)][:50] if isinstance(result.get("found"), list) else []}


def verify(jobs: list[Job], box, python: str = sys.executable) -> list[dict]:
    """One result per job, from a fresh interpreter run through `box` (a `sandbox.Sandbox`)."""
    if not jobs:
        return []
    own = box.folder / "verify.json"  # the jail gives this file to the sandbox's user
    own.touch()
    command = box.wrap([python, "-m", "harness.workbook.verify"], str(own))
    total = sum(job.timeout + 5 for job in jobs) + 60
    try:
        done = subprocess.run(command, input=json.dumps([asdict(j) for j in jobs]), capture_output=True, text=True,
                              timeout=total, env=box.env(), cwd=box.folder)
        lines = done.stdout.splitlines()
    except subprocess.TimeoutExpired:
        lines = []
    results = []
    for index, job in enumerate(jobs):
        try:
            results.append(_clean(json.loads(lines[index]), job))
        except (IndexError, ValueError, TypeError, AttributeError):
            results.append({"status": "error", "rule": f"the grader's checking process stopped before {job.exercise}",
                            "hint": "", "rules": [], "reached": [], "found": []})
    return results


if __name__ == "__main__":
    serve()

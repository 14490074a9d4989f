"""Run lesson notebooks on copies, then check each exercise's function outside the kernel.

`check` (one student, their lessons/) and `grade` (a cohort) both call `run_notebooks`:

    >>> results = run_notebooks({"03_budgeted_assembly": Path("lessons/03_budgeted_assembly.ipynb")})
    >>> [(r.exercise, r.status) for r in results]                                  # doctest: +SKIP
    [('3.1', 'passed'), ('3.2', 'not attempted')]

Each notebook is prepared (`restore.prepare`: the lesson's own check cells put back) and run top
to bottom by nbclient in a sandbox of its own (`sandbox.py`, `execute.py`): that run says which
other cells failed and where the kernel stopped, nothing about the exercises. Each exercise's
function is then rebuilt from the notebook's source as it stood above its check cell
(`rebuild.py`), read for ways to reach the reference or change the check (`guard.py`), and
checked by the grader's checker (`verify.py`) while the function runs in a jailed process of its
own that can import only the student surface (`surface.py`, `service.py`), a time limit per
exercise. Nothing printed or shown by the notebook is read, so no forged output, patched check or
leftover callback in the kernel counts. A cell that ends the kernel (`exit()`, `os._exit`) costs
the exercises nothing, wherever it is: each is graded from its source; the stop is a "-" row.
"""

import os
import secrets
import shutil
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

import harness.checks as checks
from harness.checks import NOT_ATTEMPTED
from harness.plumbing.redaction import redact
from harness.workbook import guard, surface
from harness.workbook.build import expected_lessons
from harness.workbook.execute import Run, execute
from harness.workbook.rebuild import Rebuilt, binds, parse, rebuild
from harness.workbook.restore import Prepared, prepare
from harness.workbook.sandbox import MAX_PROCESSES, Sandbox
from harness.workbook.verify import Job, verify

STATUSES = ("passed", "failed", "not attempted", "error", "missing", "tampered")
NOTE = "restored"  # the status of a "-" row saying what the grader had to put back
MAX_NOTEBOOK_BYTES = 100 << 20
TOTAL_TIMEOUT_FACTOR = 3  # a notebook may take this many cell timeouts in all, plus one per cell


@dataclass
class Result:
    lesson: str  # notebook name without .ipynb, e.g. "03_budgeted_assembly"
    exercise: str  # "3.1"; "-" for something about the notebook as a whole
    status: str  # one of STATUSES, or NOTE on a "-" row
    message: str = ""  # the check's words, or why the notebook could not be graded
    rule: str = ""  # the rule a failed check names (what the cohort's per-rule pass rates count)
    rules: list = field(default_factory=list)  # every rule the check tried: {"name", "passed"}
    review: str = ""  # for the instructor, not a status: e.g. the code is the reference's


def exercise_ids(notebook: dict) -> list[str]:
    """Exercise ids of the check cells, in order: a cell `check("3.1", f)` -> "3.1"."""
    cells = prepare(nbformat.from_dict(notebook), nbformat.from_dict(notebook)).checks
    return list(dict.fromkeys(c.exercise for c in cells))


def pristine_lessons() -> dict[str, nbformat.NotebookNode]:
    """Lesson name -> the pristine lesson the build makes from solutions/."""
    return {
        Path(name).stem: nbformat.reads(text, as_version=4)
        for name, text in expected_lessons().items()
    }


def pristine_exercises() -> dict[str, list[str]]:
    """Lesson name -> the exercise ids its pristine version checks."""
    return {name: exercise_ids(notebook) for name, notebook in pristine_lessons().items()}


def run_notebooks(
    notebooks: dict[str, Path],
    cell_timeout: float = 60,
    offline: bool | None = None,
    expected: dict[str, list[str]] | None = None,
    pristine: dict | None = None,
    isolated: bool = False,
    hide: list[Path] = (),
    seed: int | None = None,
) -> list[Result]:
    """Run each notebook (lesson name -> path) on a copy; return one Result per exercise.

    `pristine` (lesson name -> notebook) gives the check cells to restore (grading); without it a
    notebook's own check cells are run (a student checking their work). `expected` names the
    exercises each lesson should check, so a deleted check cell shows up as "missing".
    `isolated` grades in a clean environment (`offline=False` keeps a key); otherwise the caller's
    environment is kept and `offline=True` forces the glass box. Each exercise may take
    `cell_timeout` seconds in its check. `seed` draws the hidden inputs (default: a fresh secret).
    """
    expected = pristine_exercises() if expected is None else expected
    results, ran = [], []
    with tempfile.TemporaryDirectory(prefix="workbook-run-") as tmp:
        Path(tmp).chmod(0o711)  # each sandbox folder inside is closed to the others
        for lesson, path in notebooks.items():
            done = run_one(
                lesson,
                Path(path),
                Path(tmp),
                cell_timeout,
                offline,
                (pristine or {}).get(lesson),
                isolated,
                hide,
            )
            if isinstance(done, str):
                results += whole_lesson(lesson, expected.get(lesson, []), "error", done)
            else:
                ran.append((lesson, *done))
        planned = [
            (lesson, prepared, run, plan(lesson, prepared, run, cell_timeout))
            for lesson, prepared, run in ran
        ]
        jobs = [
            job
            for *_, exercises in planned
            for job, _ in exercises.values()
            if isinstance(job, Job)
        ]
        with Sandbox.create(Path(tmp), hide=hide, offline=offline, inherit=not isolated) as box:
            checked = iter(check_functions(jobs, box, seed))
        for lesson, prepared, run, exercises in planned:
            verdicts = {
                e: (
                    job
                    if isinstance(job, Result)
                    else from_check(lesson, e, next(checked), rebuilt, job.name)
                )
                for e, (job, rebuilt) in exercises.items()
            }
            results += results_of(
                lesson, prepared, run, expected.get(lesson, []), cell_timeout, verdicts
            )
    return [
        Result(
            r.lesson,
            r.exercise,
            r.status,
            redact(r.message),
            redact(r.rule),
            [{"name": redact(x["name"]), "passed": x["passed"]} for x in r.rules],
            redact(r.review),
        )
        for r in results
    ]


def check_functions(jobs: list[Job], box: Sandbox, seed: int | None = None) -> list[dict]:
    """Each job's result from the checker (`verify.py`), the functions served from a student surface
    built beside `box`'s folder for this call. `seed` draws the hidden inputs (default: a fresh
    secret).
    """
    if not jobs:
        return []
    references = {
        e.reference for e in checks.exercises().values() if e.reference.startswith("harness.")
    }
    folder = box.folder.parent / f"surface-{secrets.token_hex(8)}"
    try:
        boot = surface.build(folder, references)
        return verify(
            jobs, box, service_spec(box, boot), secrets.randbits(48) if seed is None else seed
        )
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def service_spec(box: Sandbox, boot: Path) -> dict:
    """How the checker starts the service that serves the graded functions, jailed by `box` (seeing
    the student surface and Python only, no network): forked from the checker into `jail` with
    `path` as its sys.path, or, to replace one, `command` (PYTHONHASHSEED kept: no -E)."""
    read = surface.read_only_paths(boot.parent)
    python = os.path.realpath(sys._base_executable)
    return {
        "jail": box.jail(read, network=False),
        "path": surface.service_path(boot.parent),
        "processes": MAX_PROCESSES if box.uid is not None else None,
        "cwd": str(box.folder),
        "command": box.wrap(
            [python, "-S", "-s", str(boot)], str(box.folder), read=read, network=False
        ),
        "env": {name: value for name, value in box.env().items() if name != "PYTHONPATH"},
    }


def read_notebook(path: Path) -> nbformat.NotebookNode:
    if path.stat().st_size > MAX_NOTEBOOK_BYTES:
        raise ValueError(
            f"the file is {path.stat().st_size >> 20} MiB, more than {MAX_NOTEBOOK_BYTES >> 20} MiB"
        )
    return nbformat.reads(path.read_text(encoding="utf-8"), as_version=4)


def run_one(
    lesson: str,
    path: Path,
    tmp: Path,
    cell_timeout: float,
    offline: bool | None,
    pristine,
    isolated: bool,
    hide: list[Path],
) -> tuple[Prepared, Run] | str:
    """The notebook prepared and run, or why it could not be."""
    try:
        notebook = read_notebook(path)
        prepared = prepare(notebook, pristine or notebook)
    except Exception as error:  # any unreadable file is the student's to fix, not a crash
        return (
            f"not a valid notebook ({type(error).__name__}:"
            f" {str(error).splitlines()[0][:200] if str(error) else ''})"
        )
    with Sandbox.create(tmp, hide=hide, offline=offline, inherit=not isolated) as box:
        # the student's notebook, and nothing else of theirs
        nbformat.write(notebook, box.folder / path.name)
        total = cell_timeout * TOTAL_TIMEOUT_FACTOR + 5 * len(prepared.notebook.cells) + 60
        run = execute(prepared.notebook, box, cell_timeout, total_timeout=total)
    return prepared, run


def whole_lesson(lesson: str, ids: list[str], status: str, reason: str) -> list[Result]:
    """The same status for every exercise of a lesson (one "-" row when it has none)."""
    return [Result(lesson, i, status, reason) for i in ids] or [Result(lesson, "-", status, reason)]


def _error(cell) -> dict | None:
    found = next((o for o in cell.get("outputs", []) if o.get("output_type") == "error"), None)
    return (
        {"ename": str(found.get("ename", ""))[:200], "evalue": str(found.get("evalue", ""))[:1000]}
        if found
        else None
    )


def _cell_name(cell) -> str:
    """How a student finds the cell again: its first line."""
    first = next(
        (line.strip() for line in str(cell.get("source", "")).splitlines() if line.strip()), ""
    )
    return f'the cell starting "{first[:40]}"' if first else "an empty cell"


def stopped_at(run: Run) -> int | None:
    """The index of the cell the kernel was running when the run ended early, else None."""
    return (run.stopped_at or 0) if run.stopped else None


def _reference_path(exercise: str) -> str | None:
    known = checks.exercises()
    return known[exercise].reference if exercise in known else None


def plan(lesson: str, prepared: Prepared, run: Run, cell_timeout: float) -> dict[str, tuple]:
    """Exercise -> (a Job to check, or its Result already known; the rebuilt source). Where the
    kernel stopped does not matter: each function is rebuilt from the notebook's source."""
    cells = run.notebook.cells
    setup = next(
        (c["source"] for c in cells if c.get("metadata", {}).get("workbook", {}).get("import")), ""
    )
    planned = {}
    for check in prepared.checks:
        if check.exercise in planned:
            continue
        source = [
            (i + 1, str(c.get("source", "")))
            for i, c in enumerate(cells[: check.check_index])
            if c.get("cell_type") == "code"
        ]
        rebuilt = rebuild(source, check.name)
        reference = _reference_path(check.exercise)
        found = guard.evidence(rebuilt) + (guard.reached(rebuilt, reference) if reference else [])
        if not rebuilt.found:
            planned[check.exercise] = (
                Result(
                    lesson,
                    check.exercise,
                    "error",
                    f"no cell above the check of {check.exercise} defines {check.name}",
                ),
                rebuilt,
            )
        elif found:
            planned[check.exercise] = (tampered(lesson, check.exercise, found), rebuilt)
        else:
            planned[check.exercise] = (
                Job(check.exercise, check.name, rebuilt.source, cell_timeout, setup, lesson),
                rebuilt,
            )
    return planned


def tampered(lesson: str, exercise: str, evidence: list[str]) -> Result:
    return Result(
        lesson,
        exercise,
        "tampered",
        f"Exercise {exercise} was not graded: its code does not do the work itself. "
        + "; ".join(dict.fromkeys(evidence)),
    )


def binding_line(rebuilt: Rebuilt, name: str) -> int:
    """The line of the rebuilt source that last binds `name` (what the check was handed)."""
    return max([n.lineno for n in parse(rebuilt.source).body if name in binds(n)], default=0)


def copy_review(exercise: str, rebuilt: Rebuilt, name: str) -> str:
    """For the instructor: the function is the reference's code, or nearly (never a verdict)."""
    reference = _reference_path(exercise)
    changed = (
        guard.changed_from_reference(rebuilt, name, checks.reference(exercise))
        if reference
        else None
    )
    if changed is None:
        return ""
    how = (
        "once names and layout are set aside"
        if not changed
        else (
            f"but for {changed} statement{'s' if changed > 1 else ''} added, removed or changed"
            " (names and layout aside)"
        )
    )
    return f"matches the reference ({reference}) {how}: worth a look"


def from_check(lesson: str, exercise: str, found: dict, rebuilt: Rebuilt, name: str) -> Result:
    """The exercise's Result from what the checker reported. A request for the reference of the
    exercise being graded ("reached") is the checker's own record: the line is the service's word.
    """
    lines, why = rebuilt.source.splitlines(), "calls the harness's own reference for this exercise"
    # 0: from the check
    at = [n if 1 <= n <= len(lines) else binding_line(rebuilt, name) for n in found["reached"]]
    evidence = [
        (
            f"{rebuilt.where(n)}: `{lines[n - 1].strip()[:120]}` ({why})"
            if 1 <= n <= len(lines)
            else f"the function {why}, which the grader refused"
        )
        for n in at
    ]
    if evidence:
        return tampered(lesson, exercise, evidence)
    status, rule, hint, rules = found["status"], found["rule"], found["hint"], found["rules"]
    if status == "passed":
        return Result(
            lesson, exercise, "passed", rules=rules, review=copy_review(exercise, rebuilt, name)
        )
    if status == "not attempted":
        return Result(
            lesson,
            exercise,
            status,
            f"Exercise {exercise} is {NOT_ATTEMPTED}: the function still raises"
            " NotImplementedError.",
        )
    if status not in STATUSES:
        return Result(
            lesson, exercise, "error", f"the check reported an unknown status {status[:40]!r}"
        )
    return Result(
        lesson,
        exercise,
        status,
        f"Exercise {exercise}: {rule}" + (f"\n  Hint: {hint}" if hint else ""),
        rule,
        rules,
    )


def results_of(
    lesson: str,
    prepared: Prepared,
    run: Run,
    expected: list[str],
    cell_timeout: float,
    verdicts: dict[str, Result],
) -> list[Result]:
    """One Result per exercise of the lesson, plus one "-" row per other failing cell and per
    note."""
    cells = run.notebook.cells
    interrupted = (
        f"the cell did not finish within {cell_timeout:g} s and was interrupted (an endless loop?)"
    )
    results = [
        verdicts.get(e)
        or Result(
            lesson,
            e,
            "missing",
            f'no check("{e}", ...) cell in this notebook: it was deleted or edited',
        )
        for e in dict.fromkeys(expected + list(verdicts))
    ]
    protected = {c.check_index for c in prepared.checks}
    for index, cell in enumerate(cells):
        if index in protected or cell.get("cell_type") != "code":
            continue
        error = _error(cell)
        if index in run.timed_out:
            results.append(Result(lesson, "-", "error", f"{_cell_name(cell)}: {interrupted}"))
        elif error and error["ename"] != "NotImplementedError":  # a stub is not news
            results.append(
                Result(
                    lesson, "-", "error", f"{_cell_name(cell)}: {error['ename']}: {error['evalue']}"
                )
            )
    if (stop := stopped_at(run)) is not None:
        results.append(
            Result(
                lesson,
                "-",
                "error",
                f"the kernel stopped at cell {stop + 1} ({_cell_name(cells[stop])}): {run.stopped}",
            )
        )
    results += [Result(lesson, "-", NOTE, note) for note in prepared.notes]
    if not results:
        results.append(
            Result(lesson, "-", "passed", "every cell ran; this lesson has no exercises")
        )
    return results

"""Run lesson notebooks on copies and say how each exercise did, from the checks' structured results.

`check` (one student, their lessons/) and `grade` (a cohort) both call `run_notebooks`:

    >>> results = run_notebooks({"03_budgeted_assembly": Path("lessons/03_budgeted_assembly.ipynb")})
    >>> [(r.exercise, r.status) for r in results]                                  # doctest: +SKIP
    [('3.1', 'passed'), ('3.2', 'not attempted')]

Each notebook is prepared (`restore.prepare`: the lesson's own check cells, the grader's guard
cells), run top to bottom by nbclient in a sandbox of its own (`sandbox.py`, `execute.py`), and
read: an exercise's status is the one `CheckResult` bundle (`harness.checks.MIME_TYPE`) its check
cell showed, confirmed by the guard cell after it. Printed text is never read, so a success line
printed by the student, an earlier comment naming the exercise or a forged output counts for nothing.
"""
import tempfile
from dataclasses import dataclass
from pathlib import Path

import nbformat

from harness.checks import MIME_TYPE, NOT_ATTEMPTED
from harness.workbook.build import expected_lessons
from harness.workbook.execute import Run, execute
from harness.workbook.guard import GUARD_MIME_TYPE
from harness.workbook.redact import redact
from harness.workbook.restore import GUARD_ID, Prepared, prepare
from harness.workbook.sandbox import Sandbox

STATUSES = ("passed", "failed", "not attempted", "error", "missing", "tampered")
NOTE = "restored"  # the status of a "-" row saying what the grader had to put back
MAX_NOTEBOOK_BYTES = 100 << 20
TOTAL_TIMEOUT_FACTOR = 3  # a notebook may take this many cell timeouts in all, plus one per cell


@dataclass
class Result:
    lesson: str        # notebook name without .ipynb, e.g. "03_budgeted_assembly"
    exercise: str      # "3.1"; "-" for something about the notebook as a whole
    status: str        # one of STATUSES, or NOTE on a "-" row
    message: str = ""  # the check's words, or why the notebook could not be graded
    rule: str = ""     # the rule a failed check names (what the cohort's per-rule pass rates count)


def exercise_ids(notebook: dict) -> list[str]:
    """Exercise ids of the check cells, in order: a cell `check("3.1", f)` -> "3.1"."""
    cells = prepare(nbformat.from_dict(notebook), nbformat.from_dict(notebook)).checks
    return list(dict.fromkeys(c.exercise for c in cells))


def pristine_lessons() -> dict[str, nbformat.NotebookNode]:
    """Lesson name -> the pristine lesson the build makes from solutions/."""
    return {Path(name).stem: nbformat.reads(text, as_version=4) for name, text in expected_lessons().items()}


def pristine_exercises() -> dict[str, list[str]]:
    """Lesson name -> the exercise ids its pristine version checks."""
    return {name: exercise_ids(notebook) for name, notebook in pristine_lessons().items()}


def run_notebooks(notebooks: dict[str, Path], cell_timeout: float = 60, offline: bool | None = None,
                  expected: dict[str, list[str]] | None = None, pristine: dict | None = None,
                  isolated: bool = False, hide: list[Path] = ()) -> list[Result]:
    """Run each notebook (lesson name -> path) on a copy; return one Result per exercise.

    `pristine` (lesson name -> notebook) gives the check cells to restore (grading); without it a
    notebook's own check cells are run (a student checking their work). `expected` names the
    exercises each lesson should check, so a deleted check cell shows up as "missing".
    `isolated` grades in a clean environment (`offline=False` keeps a key); otherwise the caller's
    environment is kept and `offline=True` forces the glass box.
    """
    expected = pristine_exercises() if expected is None else expected
    results = []
    with tempfile.TemporaryDirectory(prefix="workbook-run-") as tmp:
        Path(tmp).chmod(0o711)  # each sandbox folder inside is closed to the others
        for lesson, path in notebooks.items():
            results += run_one(lesson, Path(path), Path(tmp), cell_timeout, offline, expected.get(lesson, []),
                               (pristine or {}).get(lesson), isolated, hide)
    return [Result(r.lesson, r.exercise, r.status, redact(r.message), redact(r.rule)) for r in results]


def read_notebook(path: Path) -> nbformat.NotebookNode:
    if path.stat().st_size > MAX_NOTEBOOK_BYTES:
        raise ValueError(f"the file is {path.stat().st_size >> 20} MiB, more than {MAX_NOTEBOOK_BYTES >> 20} MiB")
    return nbformat.reads(path.read_text(encoding="utf-8"), as_version=4)


def run_one(lesson: str, path: Path, tmp: Path, cell_timeout: float, offline: bool | None, expected: list[str],
            pristine, isolated: bool, hide: list[Path]) -> list[Result]:
    try:
        notebook = read_notebook(path)
        prepared = prepare(notebook, pristine or notebook)
    except Exception as error:  # any unreadable file is the student's to fix, not a crash
        reason = f"not a valid notebook ({type(error).__name__}: {str(error).splitlines()[0][:200] if str(error) else ''})"
        return whole_lesson(lesson, expected, "error", reason)
    with Sandbox.create(tmp, hide=hide, offline=offline, inherit=not isolated) as box:
        nbformat.write(notebook, box.folder / path.name)  # the student's notebook, and nothing else of theirs
        total = cell_timeout * TOTAL_TIMEOUT_FACTOR + 5 * len(prepared.notebook.cells) + 60
        run = execute(prepared.notebook, box, cell_timeout, total_timeout=total)
    return results_of(lesson, prepared, run, expected, cell_timeout)


def whole_lesson(lesson: str, ids: list[str], status: str, reason: str) -> list[Result]:
    """The same status for every exercise of a lesson (one "-" row when it has none)."""
    return [Result(lesson, i, status, reason) for i in ids] or [Result(lesson, "-", status, reason)]


def _data(cell, mime: str) -> list[dict]:
    return [o["data"][mime] for o in cell.get("outputs", []) if mime in o.get("data", {})]


def _error(cell) -> dict | None:
    return next((o for o in cell.get("outputs", []) if o.get("output_type") == "error"), None)


def _cell_name(cell) -> str:
    """How a student finds the cell again: its first line."""
    first = next((line.strip() for line in cell["source"].splitlines() if line.strip()), "")
    return f'the cell starting "{first[:40]}"' if first else "an empty cell"


def results_of(lesson: str, prepared: Prepared, run: Run, expected: list[str], cell_timeout: float) -> list[Result]:
    """One Result per exercise of the lesson, plus one "-" row per other failing cell and per note."""
    cells = run.notebook.cells
    interrupted = f"the cell did not finish within {cell_timeout:g} s and was interrupted (an endless loop?)"
    by_exercise = {}
    for check in prepared.checks:
        if check.exercise in by_exercise:
            continue
        cell, guard = cells[check.check_index], cells[check.guard_index]
        shown, verified, error = _data(cell, MIME_TYPE), _data(guard, GUARD_MIME_TYPE), _error(cell)
        if check.check_index in run.timed_out:
            result = Result(lesson, check.exercise, "error", interrupted)
        elif error and not shown:
            result = Result(lesson, check.exercise, "error", f"{error['ename']}: {error['evalue']}")
        elif not shown and run.stopped:
            result = Result(lesson, check.exercise, "error", run.stopped)
        else:
            result = verdict(lesson, check.exercise, shown, verified)
        by_exercise[check.exercise] = result
    results = [by_exercise.get(e) or Result(lesson, e, "missing", f'no check("{e}", ...) cell in this notebook: it was deleted or edited')
               for e in dict.fromkeys(expected + list(by_exercise))]
    protected = {i for c in prepared.checks for i in (c.check_index, c.guard_index)}
    for index, cell in enumerate(cells):
        if index in protected or cell["cell_type"] != "code" or cell.get("id", "").startswith(GUARD_ID):
            continue
        error = _error(cell)
        if index in run.timed_out:
            results.append(Result(lesson, "-", "error", f"{_cell_name(cell)}: {interrupted}"))
        elif error and error["ename"] != "NotImplementedError":  # a stub is not news
            results.append(Result(lesson, "-", "error", f"{_cell_name(cell)}: {error['ename']}: {error['evalue']}"))
    if run.stopped and not any(r.status == "error" for r in results):
        results.append(Result(lesson, "-", "error", run.stopped))
    results += [Result(lesson, "-", NOTE, note) for note in prepared.notes]
    if not results:
        results.append(Result(lesson, "-", "passed", "every cell ran; this lesson has no exercises"))
    return results


def verdict(lesson: str, exercise: str, shown: list[dict], verified: list[dict]) -> Result:
    """The exercise's result from its check cell's bundles and its guard's, or why it is not trusted."""
    if len(shown) != 1 or shown[0].get("exercise") != exercise:
        return Result(lesson, exercise, "tampered", f"the check cell showed {len(shown)} results for "
                      f"{', '.join(str(s.get('exercise')) for s in shown) or 'no exercise'}; exactly one for {exercise} is expected")
    if len(verified) != 1:
        return Result(lesson, exercise, "tampered", "the grader's verification after the check cell did not report")
    found, guard = shown[0], verified[0]
    if guard.get("problems"):
        return Result(lesson, exercise, "tampered", "; ".join(map(str, guard["problems"])), "the checking code was tampered with")
    if guard.get("status") != found.get("status"):
        return Result(lesson, exercise, "tampered", f"the check cell showed {found.get('status')!r} but the check "
                      f"recorded {guard.get('status')!r}")
    status, rule, hint = found["status"], str(found.get("rule", "")), str(found.get("hint", ""))
    if status == "passed":
        return Result(lesson, exercise, "passed")
    if status == "not attempted":
        return Result(lesson, exercise, status, f"Exercise {exercise} is {NOT_ATTEMPTED}: the function still raises NotImplementedError.")
    return Result(lesson, exercise, status, f"Exercise {exercise}: {rule}" + (f"\n  Hint: {hint}" if hint else ""), rule)

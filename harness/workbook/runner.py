"""Run lesson notebooks under nbval, on copies, and say how each exercise did.

`check` (one student, their lessons/) and `grade` (a cohort) both call `run_notebooks`:

    >>> results = run_notebooks({"03_budgeted_assembly": Path("lessons/03_budgeted_assembly.ipynb")})
    >>> [(r.exercise, r.status) for r in results]                                  # doctest: +SKIP
    [('3.1', 'passed'), ('3.2', 'not attempted')]

Each notebook is copied into its own folder of a temporary directory and run there by
`python -m pytest --nbval-lax --nbval-current-env` with the `nbval_report` plugin, so the student's
files are never touched and one lesson's scratch files never meet another's. An exercise is the
`check("N.M", ...)` call in a cell: the cell's outcome is the exercise's status.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import nbformat

from harness.checks import NOT_ATTEMPTED
from harness.client import KEY_SHAPE, KEY_VARIABLES
from harness.workbook import ROOT
from harness.workbook.build import expected_lessons

STATUSES = ("passed", "failed", "not attempted", "error", "missing")
CHECK_CALL = re.compile(r"""\bcheck\(\s*["'](\d+\.\d+)["']""")
SPARE_SECONDS = 120  # kernel start-up and pytest itself, on top of the per-cell timeouts


@dataclass
class Result:
    lesson: str        # notebook name without .ipynb, e.g. "03_budgeted_assembly"
    exercise: str      # "3.1"; "-" for something about the notebook as a whole
    status: str        # one of STATUSES
    message: str = ""  # the check's words, or why the notebook could not be graded


def exercise_ids(notebook: dict) -> list[str]:
    """Exercise ids of the check cells, in order: `check("3.1", f)` -> "3.1"."""
    ids = []
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") == "code":
            source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
            ids += [i for i in CHECK_CALL.findall(source) if i not in ids]
    return ids


def pristine_exercises() -> dict[str, list[str]]:
    """Lesson name -> the exercise ids its pristine version checks (from solutions/)."""
    return {Path(name).stem: exercise_ids(json.loads(text)) for name, text in expected_lessons().items()}


def redact(text: str) -> str:
    """Hide API keys: the values set in this environment and anything shaped like a Gemini key."""
    for name in KEY_VARIABLES:
        if len(os.environ.get(name, "")) >= 8:  # a short value is no secret and would mangle text
            text = text.replace(os.environ[name], "[key hidden]")
    return KEY_SHAPE.sub("[key hidden]", text)


def run_notebooks(notebooks: dict[str, Path], cell_timeout: float = 60, offline: bool | None = None,
                  expected: dict[str, list[str]] | None = None) -> list[Result]:
    """Run each notebook (lesson name -> path) on a copy; return one Result per exercise.

    `offline=True` forces the glass box (WORKBOOK_OFFLINE=1); None keeps the caller's environment.
    `expected` names the exercises each lesson should check (default: the pristine lessons'), so a
    deleted check cell shows up as "missing" instead of vanishing.
    """
    expected = pristine_exercises() if expected is None else expected
    results, runnable = [], {}
    with tempfile.TemporaryDirectory(prefix="workbook-run-") as tmp:
        for index, (lesson, path) in enumerate(notebooks.items()):
            try:
                notebook = nbformat.reads(Path(path).read_text(encoding="utf-8"), as_version=4)
            except Exception as error:  # any unreadable file is the student's to fix, not a crash
                reason = f"not a valid notebook ({type(error).__name__}: {str(error).splitlines()[0][:200]})"
                results += whole_lesson(lesson, expected.get(lesson, []), "error", reason)
                continue
            copy = Path(tmp) / f"{index:03d}" / Path(path).name
            copy.parent.mkdir()
            nbformat.write(notebook, copy)
            runnable[str(copy)] = (lesson, notebook)
        if runnable:
            records = _run_pytest(runnable, Path(tmp), cell_timeout, offline)
            for copy, (lesson, notebook) in runnable.items():
                wanted = list(dict.fromkeys(expected.get(lesson, []) + exercise_ids(notebook)))
                results += results_for(lesson, wanted, [r for r in records if r["file"] == copy], cell_timeout)
    order = {lesson: i for i, lesson in enumerate(notebooks)}
    return sorted((Result(r.lesson, r.exercise, r.status, redact(r.message)) for r in results),
                  key=lambda r: order[r.lesson])


def whole_lesson(lesson: str, ids: list[str], status: str, reason: str) -> list[Result]:
    """The same status for every exercise of a lesson (one "-" row when it has none)."""
    return [Result(lesson, i, status, reason) for i in ids] or [Result(lesson, "-", status, reason)]


def _run_pytest(copies: dict, tmp: Path, cell_timeout: float, offline: bool | None) -> list[dict]:
    """Run nbval on `copies` (path -> (lesson, notebook)); the plugin's records, or one
    collect_error record per copy."""
    report = tmp / "cells.json"
    (tmp / "pytest.ini").write_text("[pytest]\n")  # makes tmp the rootdir: no project config leaks in
    profile = tmp / "ipython" / "profile_default"  # plain tracebacks: no ANSI codes in messages
    profile.mkdir(parents=True)
    (profile / "ipython_kernel_config.py").write_text("c.InteractiveShell.colors = 'nocolor'\n")
    # WORKBOOK_CHECKS_RAISE: a check that does not pass raises, so the cell's outcome is the exercise's.
    env = dict(os.environ, IPYTHONDIR=str(tmp / "ipython"), WORKBOOK_CHECKS_RAISE="1",
               PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    if offline:
        env["WORKBOOK_OFFLINE"] = "1"
    command = [sys.executable, "-m", "pytest", "--nbval-lax", "--nbval-current-env", "-p", "no:cacheprovider",
               "-p", "no:randomly", "-p", "harness.workbook.nbval_report", f"--nbval-report={report}",
               f"--nbval-cell-timeout={cell_timeout}", "--continue-on-collection-errors", "-q", *copies]
    cells = sum(len(nb.cells) for _, nb in copies.values())
    try:
        done = subprocess.run(command, cwd=tmp, env=env, capture_output=True, text=True,
                              timeout=cell_timeout * cells + SPARE_SECONDS)
    except subprocess.TimeoutExpired:
        why = f"the run was stopped after {cell_timeout * cells + SPARE_SECONDS:g} s without finishing"
        return [{"file": copy, "collect_error": why} for copy in copies]
    if not report.is_file():  # pytest itself failed to start: show its own words
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-5:])
        return [{"file": copy, "collect_error": f"pytest could not run the notebook:\n{tail}"} for copy in copies]
    return json.loads(report.read_text(encoding="utf-8"))


def results_for(lesson: str, ids: list[str], records: list[dict], cell_timeout: float) -> list[Result]:
    """Turn one notebook's cell records into one Result per exercise id (plus cell errors)."""
    broken = [r for r in records if "collect_error" in r]
    if broken:
        return whole_lesson(lesson, ids, "error", broken[0]["collect_error"].strip().splitlines()[-1])
    status = {}
    results = []
    for record in records:
        in_cell = CHECK_CALL.findall(record["source"])
        for exercise in in_cell:
            if exercise not in status:
                status[exercise] = _exercise_result(lesson, exercise, record, cell_timeout)
        if not in_cell and record["outcome"] == "failed" and record["ename"] != "NotImplementedError":
            # A failure outside a check cell (a stub's NotImplementedError is not news).
            results.append(Result(lesson, "-", "error", f"{_cell_name(record)}: {_failure(record, cell_timeout)}"))
    for exercise in ids:
        results.append(status.get(exercise) or Result(
            lesson, exercise, "missing",
            f'no check("{exercise}", ...) cell in this notebook: it was deleted or edited'))
    if not results:
        results.append(Result(lesson, "-", "passed", "every cell ran; this lesson has no exercises"))
    return sorted(results, key=lambda r: r.exercise == "-")


def _exercise_result(lesson: str, exercise: str, record: dict, cell_timeout: float) -> Result:
    if record["outcome"] != "failed" or f"Exercise {exercise} passed" in record["stdout"]:
        return Result(lesson, exercise, "passed")
    if record["ename"] == "ExerciseFailed" and f"Exercise {exercise}" in (record["evalue"] or ""):
        return Result(lesson, exercise, "not attempted" if NOT_ATTEMPTED in record["evalue"] else "failed",
                      record["evalue"])
    return Result(lesson, exercise, "error", _failure(record, cell_timeout))


def _cell_name(record: dict) -> str:
    """How a student finds the cell again: its first line (nbval's numbers skip markdown cells)."""
    first = next((line.strip() for line in record["source"].splitlines() if line.strip()), "")
    return f'the cell starting "{first[:40]}"' if first else "an empty cell"


def _failure(record: dict, cell_timeout: float) -> str:
    """Why a cell failed, in one or two lines."""
    if record["timeout"]:
        return f"the cell did not finish within {cell_timeout:g} s and was interrupted (an endless loop?)"
    if record["ename"]:
        return f"{record['ename']}: {record['evalue']}"
    return record["error"].strip().splitlines()[-1] if record["error"].strip() else "the cell failed"

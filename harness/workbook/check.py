"""`workbook check [LESSON ...]`: run your lessons and list how each exercise stands.

    $ workbook check 03
    lesson                exercise  status         message
    03_budgeted_assembly  3.1       passed
    03_budgeted_assembly  3.2       not attempted  Exercise 3.2 is not attempted yet: the function ...

    1 passed, 1 not attempted.

LESSON is a number (`03` or `3`), a lesson name, or a path to a notebook; none means every notebook
in lessons/. The lessons are those of the workbook the command is run in (the current folder, a
folder above it, or the one copy just below it: see `harness.workbook.find_workbook`), or of
`--lessons DIR`; never the installed package's. `python -m harness check` is the same. The notebooks
run on copies in a temporary folder (your files are never changed) with your environment as it is:
with a Gemini key set, the lessons call Gemini. A notebook with no exercise cells (and none expected
of it) is "nothing to check", not run. Exit status: 0 when every exercise passed, 1 otherwise (a
notebook with nothing to check included), 2 when a lesson cannot be found.
"""

import argparse
import json
import sys
from pathlib import Path

from harness.plumbing.arguments import command_line_number, shown
from harness.workbook import LESSONS, LessonsNotFound, Workbook, find_workbook, names_lesson
from harness.workbook.runner import STATUSES, Result, exercise_ids, read_notebook, run_notebooks

MESSAGE_LINES = (
    2  # the broken rule and its hint; the full text is one `check(...)` away in the notebook
)
NOTHING = "nothing to check"  # the status of a notebook with no exercise: never "passed"


class LessonNotFound(LookupError):
    """A LESSON argument matched no notebook; the message lists the lessons there are."""


def lesson_notebooks(folder: Path = LESSONS) -> list[Path]:
    """The lesson notebooks of `folder`, without the backups `reset` and `build` keep."""
    return sorted(p for p in folder.glob("*.ipynb") if ".backup-" not in p.name)


def find_lesson(wanted: str, folder: Path = LESSONS) -> Path:
    """`03`, `3`, `03_budgeted_assembly` or a path -> the notebook's path.

    >>> find_lesson("3", Path("lessons"))                 # doctest: +SKIP
    PosixPath('.../lessons/03_budgeted_assembly.ipynb')
    """
    as_path = Path(wanted)
    if as_path.suffix == ".ipynb" and as_path.is_file():
        return as_path
    known = lesson_notebooks(folder)
    for path in known:
        if names_lesson(wanted, path.name):
            return path
    names = ", ".join(p.stem for p in known) or f"none: {folder} holds no notebooks"
    raise LessonNotFound(
        f"No lesson {shown(wanted)} in {folder}. Give a number, a name or a notebook path. Lessons:"
        f" {names}."
    )


def expected_exercises(workbook: Workbook | None) -> dict[str, list[str]]:
    """Lesson name -> the exercises its pristine version checks, so a deleted check cell shows as
    missing."""
    pristine = workbook.pristine() if workbook else {}
    return {Path(name).stem: exercise_ids(json.loads(text)) for name, text in pristine.items()}


def format_table(results: list[Result]) -> str:
    """Results as aligned columns, messages cut to their first lines, then a one-line tally."""
    rows = [("lesson", "exercise", "status", "message")]
    for r in results:
        # "not attempted" says it all; its hint is the same for every exercise.
        lines = r.message.strip().splitlines()[
            : 1 if r.status == "not attempted" else MESSAGE_LINES
        ] or [""]
        rows.append((r.lesson, r.exercise, r.status, lines[0]))
        rows += [("", "", "", line) for line in lines[1:]]
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    table = "\n".join(
        f"{a:<{widths[0]}}  {b:<{widths[1]}}  {c:<{widths[2]}}  {d}".rstrip() for a, b, c, d in rows
    )
    counts = [
        (status, sum(r.status == status for r in results if r.exercise != "-"))
        for status in STATUSES
    ]
    counts.append((NOTHING, sum(r.status == NOTHING for r in results)))
    tally = ", ".join(f"{n} {status}" for status, n in counts if n) or "no exercises found"
    return f"{table}\n\n{tally}."


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="workbook check", description=__doc__.split("\n")[0])
    parser.add_argument(
        "lessons", nargs="*", metavar="LESSON", help="03, 3, a lesson name or a path (default: all)"
    )
    parser.add_argument(
        "--cell-timeout",
        type=command_line_number(1, 86_400, "--cell-timeout"),
        default=120,
        metavar="S",
        help="interrupt a cell running longer than S seconds (default 120)",
    )
    parser.add_argument(
        "--lessons",
        type=Path,
        default=None,
        metavar="DIR",
        dest="folder",
        help="your workbook or lessons folder (default: found from the current folder)",
    )
    args = parser.parse_args(argv)
    by_path = bool(args.lessons) and all(
        w.endswith(".ipynb") and Path(w).is_file() for w in args.lessons
    )
    # notebooks named by path need no workbook around them, but the one they are in says what to
    # expect
    try:
        workbook = find_workbook(args.folder or (Path(args.lessons[0]) if by_path else None))
    except LessonsNotFound as error:
        if not by_path:
            print(error, file=sys.stderr)
            return 2
        workbook = None
    try:
        if not args.lessons:
            paths = lesson_notebooks(workbook.lessons)
        else:
            paths = [
                find_lesson(w, workbook.lessons) if workbook else Path(w) for w in args.lessons
            ]
    except LessonNotFound as error:
        print(error, file=sys.stderr)
        return 2
    if not paths:
        print(f"No lesson notebooks in {workbook.lessons}.", file=sys.stderr)
        return 2
    expected = expected_exercises(workbook)
    idle = [p for p in paths if nothing_to_check(p, expected)]
    results = [
        Result(p.stem, "-", NOTHING, "no check(...) cell: is it a lesson notebook?") for p in idle
    ]
    if to_run := [p for p in paths if p not in idle]:
        print(
            f"Running {len(to_run)} lesson(s) on copies in a temporary folder (a few seconds"
            " each)...",
            file=sys.stderr,
            flush=True,
        )
        ran = run_notebooks(
            {p.stem: p for p in to_run}, cell_timeout=args.cell_timeout, expected=expected
        )
        results = ran + results
    print(format_table(results))
    return 0 if all(r.status == "passed" for r in results) else 1


def nothing_to_check(path: Path, expected: dict[str, list[str]]) -> bool:
    """True for a readable notebook with no exercise cell, of which no exercise is expected either
    (a notebook that cannot be read is the run's to report, as an error naming why)."""
    try:
        return not expected.get(path.stem) and not exercise_ids(read_notebook(path))
    except Exception:  # noqa: BLE001 - unreadable, too big, not a notebook: run_notebooks says which
        return False

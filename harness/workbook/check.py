"""`python -m harness check [LESSON ...]`: run your lessons and list how each exercise stands.

    $ python -m harness check 03
    lesson                exercise  status         message
    03_budgeted_assembly  3.1       passed
    03_budgeted_assembly  3.2       not attempted  Exercise 3.2 is not attempted yet: the function ...

    1 passed, 1 not attempted.

LESSON is a number (`03` or `3`), a lesson name, or a path to a notebook; none means every
notebook in lessons/. The notebooks run on copies in a temporary folder (your files are never
changed) with your environment as it is: with a Gemini key set, the lessons call Gemini.
Exit status: 0 when every exercise passed, 1 otherwise, 2 when a lesson cannot be found.
"""
import argparse
import sys
from pathlib import Path

from harness.workbook import LESSONS, names_lesson
from harness.workbook.runner import STATUSES, Result, run_notebooks

MESSAGE_LINES = 2  # the broken rule and its hint; the full text is one `check(...)` away in the notebook


class LessonNotFound(LookupError):
    """A LESSON argument matched no notebook; the message lists the lessons there are."""


def lesson_notebooks(folder: Path = LESSONS) -> list[Path]:
    """The lesson notebooks of `folder`, without the backups `reset` and `build` keep."""
    return sorted(p for p in folder.glob("*.ipynb") if ".backup-" not in p.name)


def find_lesson(wanted: str, folder: Path = LESSONS) -> Path:
    """`03`, `3`, `03_budgeted_assembly` or a path -> the notebook's path.

    >>> find_lesson("3")                                  # doctest: +SKIP
    PosixPath('.../lessons/03_budgeted_assembly.ipynb')
    """
    as_path = Path(wanted)
    if as_path.suffix == ".ipynb" and as_path.is_file():
        return as_path
    known = lesson_notebooks(folder)
    for path in known:
        if names_lesson(wanted, path.name):
            return path
    names = ", ".join(p.stem for p in known) or f"none: {folder} holds no notebooks (run `python -m harness build`)"
    raise LessonNotFound(f"No lesson {wanted!r} in {folder}. Give a number, a name or a notebook path. Lessons: {names}.")


def format_table(results: list[Result]) -> str:
    """Results as aligned columns, messages cut to their first lines, then a one-line tally."""
    rows = [("lesson", "exercise", "status", "message")]
    for r in results:
        # "not attempted" says it all; its hint is the same for every exercise.
        lines = r.message.strip().splitlines()[:1 if r.status == "not attempted" else MESSAGE_LINES] or [""]
        rows.append((r.lesson, r.exercise, r.status, lines[0]))
        rows += [("", "", "", line) for line in lines[1:]]
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    table = "\n".join(f"{a:<{widths[0]}}  {b:<{widths[1]}}  {c:<{widths[2]}}  {d}".rstrip() for a, b, c, d in rows)
    counts = [(status, sum(r.status == status for r in results if r.exercise != "-")) for status in STATUSES]
    tally = ", ".join(f"{n} {status}" for status, n in counts if n) or "no exercises found"
    return f"{table}\n\n{tally}."


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m harness check", description=__doc__.split("\n")[0])
    parser.add_argument("lessons", nargs="*", metavar="LESSON", help="03, 3, a lesson name or a path (default: all)")
    parser.add_argument("--cell-timeout", type=float, default=120, metavar="S",
                        help="interrupt a cell running longer than S seconds (default 120)")
    args = parser.parse_args(argv)
    try:
        paths = [find_lesson(w) for w in args.lessons] if args.lessons else lesson_notebooks()
    except LessonNotFound as error:
        print(error, file=sys.stderr)
        return 2
    if not paths:
        print(f"No lesson notebooks in {LESSONS}. Run `python -m harness build` first.", file=sys.stderr)
        return 2
    print(f"Running {len(paths)} lesson(s) on copies in a temporary folder (a few seconds each)...",
          file=sys.stderr, flush=True)
    results = run_notebooks({p.stem: p for p in paths}, cell_timeout=args.cell_timeout)
    print(format_table(results))
    return 0 if all(r.status == "passed" for r in results) else 1

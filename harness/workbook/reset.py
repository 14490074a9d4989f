"""`python -m harness reset NN`: put lesson NN back as it was handed out, keeping yours.

    $ python -m harness reset 03
    Restored lessons/03_budgeted_assembly.ipynb to its pristine version.
    Your version is kept beside it as lessons/03_budgeted_assembly.backup-20260301-101500.ipynb.

The pristine text is what `python -m harness build` makes from solutions/. Nothing is ever
deleted: the replaced notebook is copied to a timestamped backup first, and a lesson that is
already pristine is left alone.
"""
import sys
from pathlib import Path

from harness.workbook import LESSONS, ROOT, SOLUTIONS, keep_backup, names_lesson
from harness.workbook.build import expected_lessons


class UnknownLesson(LookupError):
    """NN names no lesson; the message lists the lessons there are."""


def pristine_lesson(wanted: str, solutions: Path = SOLUTIONS) -> tuple[str, str]:
    """`03`, `3` or `03_budgeted_assembly` -> (file name, pristine text)."""
    lessons = expected_lessons(solutions)
    for name, text in lessons.items():
        if names_lesson(wanted, name):
            return name, text
    listing = ", ".join(Path(n).stem for n in lessons) or "none (solutions/ holds no notebooks)"
    raise UnknownLesson(f"No lesson {wanted!r}. Give its number, e.g. `python -m harness reset 03`. Lessons: {listing}.")


def reset(wanted: str, solutions: Path = SOLUTIONS, lessons: Path = LESSONS) -> tuple[Path, Path | None, bool]:
    """Restore one lesson; return (its path, the backup of the student's version or None, whether it was written)."""
    name, text = pristine_lesson(wanted, solutions)
    target = lessons / name
    if target.is_file() and target.read_text(encoding="utf-8") == text:
        return target, None, False
    backup = keep_backup(target) if target.exists() else None
    lessons.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    return target, backup, True


def _shown(path: Path) -> str:
    """A path relative to the project when it is inside it: what the student sees in JupyterLab."""
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def main(argv: list[str]) -> int:
    if len(argv) != 1 or argv[0].startswith("-"):
        print("usage: python -m harness reset NN   (restores lesson NN, keeps yours as a backup)", file=sys.stderr)
        return 2
    try:
        target, backup, written = reset(argv[0])
    except UnknownLesson as error:
        print(error, file=sys.stderr)
        return 2
    if not written:
        print(f"{_shown(target)} is already pristine: nothing to do, nothing written.")
        return 0
    print(f"Restored {_shown(target)} to its pristine version.")
    if backup:
        print(f"Your version is kept beside it as {_shown(backup)}.")
        # JupyterLab would otherwise save its open copy over the fresh file.
        print("If the lesson is open in JupyterLab, use File > Reload Notebook from Disk before working on.")
    return 0

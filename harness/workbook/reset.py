"""`workbook reset NN`: put lesson NN back as it was handed out, keeping yours.

    $ workbook reset 03
    Restored lessons/03_budgeted_assembly.ipynb to its pristine version.
    Your version is kept beside it as lessons/03_budgeted_assembly.backup-20260301-101500.ipynb.

It acts on the workbook it is run in (see `harness.workbook.find_workbook`), or the one named by
`--lessons DIR`. The pristine text is what `build` makes from solutions/ (course repository) or the
copy a release keeps in .workbook/pristine/. Nothing is ever deleted: the replaced notebook is
copied to a timestamped backup first, and a lesson that is already pristine is left alone. A lesson
open in JupyterLab is refused: the open tab would otherwise save over the fresh file or lose unsaved
edits.
"""

import argparse
import sys
from pathlib import Path

from harness.workbook import LessonsNotFound, Workbook, find_workbook, keep_backup, names_lesson
from harness.workbook.open_notebooks import OpenState, open_in_jupyter

WHAT_TO_CLICK = (
    "In its tab: save your work with Ctrl+S (Cmd+S on a Mac), then File > Close and Shut Down"
    " Notebook.\n(Tab already closed? Shut its kernel down in the Running Terminals and Kernels"
    " panel of the left bar.)\nThen run `workbook reset {lesson}` again: your saved version will be"
    " kept as a backup."
)
IF_IT_IS_OPEN = (
    "Could not ask the Jupyter server at {urls} whether this lesson is open. If it is open in a"
    " tab:\ndo not save that tab over the fresh lesson. Keep its edits with File > Save Notebook"
    " As... (a new name),\nand if JupyterLab says the file changed on disk, choose Cancel, then"
    " Save Notebook As..."
)


class UnknownLesson(LookupError):
    """NN names no lesson; the message lists the lessons there are."""


class LessonOpen(RuntimeError):
    """The lesson has a session in a running Jupyter server; the message says what to click."""


def pristine_lesson(wanted: str, workbook: Workbook) -> tuple[str, str]:
    """`03`, `3` or `03_budgeted_assembly` -> (file name, pristine text)."""
    lessons = workbook.pristine()
    for name, text in lessons.items():
        if names_lesson(wanted, name):
            return name, text
    if not lessons:
        raise UnknownLesson(
            f"No pristine lessons in {workbook.root}: neither solutions/ (the course repository) "
            "nor .workbook/pristine/ (a student release). Get the workbook again from your "
            "instructor's link, into a new folder."
        )
    listing = ", ".join(Path(n).stem for n in lessons)
    raise UnknownLesson(
        f"No lesson {wanted!r}. Give its number, e.g. `workbook reset 03`. Lessons: {listing}."
    )


def reset(wanted: str, workbook: Workbook) -> tuple[Path, Path | None, bool, OpenState]:
    """Restore one lesson; return (its path, the backup of the student's version or None, whether
    it was written, what the running Jupyter servers said). Raises LessonOpen, writing nothing,
    when a server has the lesson open."""
    name, text = pristine_lesson(wanted, workbook)
    target = workbook.lessons / name
    if target.is_file() and target.read_text(encoding="utf-8") == text:
        return target, None, False, OpenState()
    state = open_in_jupyter(target)
    if state.open_at:
        raise LessonOpen(
            f"{workbook.shown(target)} is open in JupyterLab ({', '.join(state.open_at)}), so it "
            "was not reset: the open tab would save over the fresh copy.\n"
            + WHAT_TO_CLICK.format(lesson=Path(name).stem[:2])
        )
    backup = keep_backup(target) if target.exists() else None
    workbook.lessons.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    return target, backup, True, state


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="workbook reset", description=__doc__.split("\n")[0])
    parser.add_argument("lesson", metavar="NN", help="the lesson's number (03 or 3) or name")
    parser.add_argument(
        "--lessons",
        type=Path,
        default=None,
        metavar="DIR",
        help="your workbook or lessons folder (default: found from the current folder)",
    )
    args = parser.parse_args(argv)
    try:
        workbook = find_workbook(args.lessons)
        target, backup, written, state = reset(args.lesson, workbook)
    except (LessonsNotFound, UnknownLesson, LessonOpen) as error:
        print(error, file=sys.stderr)
        return 1 if isinstance(error, LessonOpen) else 2
    if not written:
        print(f"{workbook.shown(target)} is already pristine: nothing to do, nothing written.")
        return 0
    print(f"Restored {workbook.shown(target)} to its pristine version.")
    if backup:
        print(f"Your version is kept beside it as {workbook.shown(backup)}.")
    if state.unasked:
        print(IF_IT_IS_OPEN.format(urls=", ".join(state.unasked)))
    return 0

"""Workbook tooling: build the lessons from the solutions, check a student's work, grade a cohort.

Two kinds of folder hold lessons. The course repository (`ROOT`, the author's and instructor's)
has `solutions/` and the `lessons/` built from them. A student's copy (a laptop clone, a hub home
pulled with nbgitpuller, a release folder) has `lessons/` and, in a release, the pristine lessons
under `.workbook/pristine/`. Student commands (`check`, `reset`) act on the copy they are run in:

    >>> find_workbook(Path("~/context-engineering-workbook/lessons").expanduser())   # doctest: +SKIP
    Workbook(root=PosixPath('/home/ada/context-engineering-workbook'), lessons=PosixPath('.../lessons'))
"""

import re
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from harness.plumbing.arguments import checked

# The project folder of this install (the one holding solutions/ and lessons/): build and grade use
# it.
ROOT = Path(__file__).resolve().parents[2]
SOLUTIONS = ROOT / "solutions"
LESSONS = ROOT / "lessons"
# in a student release: the lessons as handed out, for `reset`
PRISTINE = Path(".workbook") / "pristine"
LESSON_FILE = re.compile(r"^\d\d_.+\.ipynb$")
# folders of lesson-named notebooks that are not the student's
NOT_LESSONS = (
    "solutions",
    "pristine",
)


class LessonsNotFound(LookupError):
    """No lessons folder where a command was run, above it, or just below it."""


@dataclass(frozen=True)
class Workbook:
    """One copy of the workbook: where its lessons are and where their pristine versions come
    from."""

    root: Path
    lessons: Path

    def pristine(self) -> dict[str, str]:
        """Lesson file name -> its text as handed out: built from solutions/ in the course
        repository, read from .workbook/pristine/ in a student release; {} when neither is there."""
        solutions = self.root / "solutions"
        if any(solutions.glob("*.ipynb")):
            from harness.workbook.build import expected_lessons

            return expected_lessons(solutions)
        return {
            p.name: p.read_text(encoding="utf-8")
            for p in sorted((self.root / PRISTINE).glob("*.ipynb"))
        }

    def shown(self, path: Path) -> str:
        """`path` as the student sees it in JupyterLab's file browser: relative to the workbook."""
        return str(path.relative_to(self.root)) if path.is_relative_to(self.root) else str(path)


def _holds_lessons(folder: Path) -> bool:
    try:
        return folder.is_dir() and any(LESSON_FILE.match(p.name) for p in folder.iterdir())
    # a folder on the way up that this account may cross but not list (hub homes)
    except PermissionError:
        return False


@checked
def find_workbook(start: Path | None = None) -> Workbook:
    """The workbook copy that `start` (default: the current folder) is in.

    From `start` up to the filesystem root, the first folder that has a `lessons/` of lesson
    notebooks (`NN_name.ipynb`), or is one, wins. A hub home holds the copy one level down
    (`~/context-engineering-workbook/lessons`): when nothing is found above, a single sub-folder
    of `start` holding lessons/ is taken too.
    """
    start = (start or Path.cwd()).expanduser().resolve()
    if start.is_file():
        start = start.parent
    for folder in (start, *start.parents):
        if _holds_lessons(folder / "lessons"):
            return Workbook(folder, folder / "lessons")
        if folder.name not in NOT_LESSONS and _holds_lessons(folder):
            return Workbook(folder.parent if folder.name == "lessons" else folder, folder)
    below = (
        [
            child
            for child in sorted(start.iterdir())
            if not child.name.startswith(".") and _holds_lessons(child / "lessons")
        ]
        if start.is_dir()
        else []
    )
    if len(below) == 1:
        return Workbook(below[0], below[0] / "lessons")
    several = (
        f" Several folders below hold lessons ({', '.join(p.name for p in below)}): pick one."
        if below
        else ""
    )
    raise LessonsNotFound(
        f"No lessons found in {start} or the folders above it.{several} Run the command from your "
        "workbook folder (the one holding lessons/), e.g. `cd ~/context-engineering-workbook`, "
        "or name it: `workbook check --lessons PATH`."
    )


@checked
def names_lesson(wanted: str, file_name: str) -> bool:
    """Whether `wanted` (`3`, `03`, `03_budgeted_assembly` or the file name) names `file_name`."""
    stem = wanted.removesuffix(".ipynb")
    number = stem.isdecimal() and len(stem) <= 3  # a lesson number; a longer one names no lesson
    return Path(file_name).stem == stem or (number and file_name.startswith(f"{int(stem):02d}_"))


@checked
def keep_backup(path: Path) -> Path:
    """Copy `path` to a timestamped file beside it (never overwriting one) and return the copy.

    Every workbook command that replaces a student's notebook calls this first.
    """
    stamp = time.strftime("%Y%m%d-%H%M%S")
    backup = path.with_name(f"{path.stem}.backup-{stamp}{path.suffix}")
    n = 1
    while backup.exists():
        backup = path.with_name(f"{path.stem}.backup-{stamp}-{n}{path.suffix}")
        n += 1
    shutil.copy2(path, backup)
    return backup

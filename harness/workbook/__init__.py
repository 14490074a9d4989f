"""Workbook tooling: build the lessons from the solutions, check a student's work, grade a cohort."""
import shutil
import time
from pathlib import Path

# The project folder (the one holding solutions/ and lessons/).
ROOT = Path(__file__).resolve().parents[2]
SOLUTIONS = ROOT / "solutions"
LESSONS = ROOT / "lessons"


def names_lesson(wanted: str, file_name: str) -> bool:
    """Whether `wanted` (`3`, `03`, `03_budgeted_assembly` or the file name) names `file_name`."""
    stem = wanted.removesuffix(".ipynb")
    return Path(file_name).stem == stem or (stem.isdigit() and file_name.startswith(f"{int(stem):02d}_"))


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

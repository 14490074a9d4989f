"""The scenarios: the coding tasks the agent fixes and the tutor course, each a plug-in of the glass
box.

Each scenario is a package here that, when imported, registers what its glass box knows
(`harness.engine.scenario.register`) and, for a coding task, its files and prompt (`add_task`).
Importing this package imports them all; `harness.connect()` does so before the first call.

>>> sorted(name for name in TASKS if ":" not in name)  # "repairs:stock" and such: sub-tasks made on demand
['invoicing', 'repairs', 'shipping']
>>> from tempfile import mkdtemp
>>> root = copy_task(mkdtemp())
>>> sorted(p.name for p in (root / "invoicing").glob("*.py"))
['__init__.py', 'amounts.py', 'discounts.py']

The agent never touches a task's own files: `copy_task` gives it a fresh copy to work in. To add
a task of your own, follow "Adding your own task" in INSTRUCTORS.md.
"""

import importlib
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from harness.plumbing.arguments import (
    checked,
    require_fields,
    require_non_empty_text,
    require_path,
    shown,
)

DEFAULT_TASK = "invoicing"  # the lessons' task
# what running the task's tests leaves; never part of a copy
CACHES = {
    "__pycache__",
    ".pytest_cache",
}


@dataclass(frozen=True)
class CodingTask:
    """A coding task: the files copied into each run's workspace, and the first user message."""

    name: str
    # README.md, the package, tests/ and a pytest.ini that makes the folder pytest's rootdir
    folder: Path
    prompt: str  # what the agent is asked to do
    bugs: int = 2  # how many rules its code breaks: a run that fixes the task edits this many files

    def __post_init__(self):
        require_fields(
            self,
            name=require_non_empty_text,
            folder=require_path,
            prompt=require_non_empty_text,
            bugs=(1, 1000),
        )
        missing = [
            n for n in ("README.md", "pytest.ini", "tests") if not (Path(self.folder) / n).exists()
        ]
        if missing:
            raise ValueError(
                f"Task {shown(self.name)}: {self.folder} lacks {', '.join(missing)}; a task folder"
                " holds README.md (its rules), its package, tests/ and pytest.ini (see"
                " INSTRUCTORS.md)."
            )


TASKS: dict[str, CodingTask] = {}


@checked
def add_task(task: CodingTask) -> CodingTask:
    """Make `task` available to `copy_task`, `run_agent(task=...)` and `python -m harness demo
    --task`."""
    TASKS[task.name] = task
    return task


@checked
def task_named(name: str) -> CodingTask:
    """The task called `name`; a ValueError naming the tasks there are."""
    if name not in TASKS:
        raise ValueError(
            f"No task named {shown(name)}. Tasks: {', '.join(sorted(TASKS))}. "
            "A new task is a package under harness/scenarios/ (see INSTRUCTORS.md)."
        )
    return TASKS[name]


@checked(dest=require_path)
def copy_task(dest: str | os.PathLike, task: str = DEFAULT_TASK) -> Path:
    """Copy the task's files into the folder `dest` (created if needed, must be empty) and return
    it.

    Caches (`__pycache__`, `.pytest_cache`) are left behind so the copy is exactly the task.
    """
    dest = Path(dest)
    if dest.exists() and any(dest.iterdir()):
        raise ValueError(
            f"copy_task needs an empty folder; {dest} already holds files. "
            "Pass a new temporary folder, e.g. tempfile.mkdtemp()."
        )
    shutil.copytree(
        task_named.unchecked(task).folder,
        dest,
        dirs_exist_ok=True,
        ignore=shutil.ignore_patterns(*CACHES),
    )
    return dest


def _is_other(path: Path, right_kind) -> bool:
    """True when something that is not a link stands at `path` but is not of the right kind."""
    return not path.is_symlink() and path.exists() and not right_kind(path)


def _unlink_link(path: Path) -> None:
    if path.is_symlink():
        path.unlink()


@checked(dest=require_path)
def restore_task(dest: str | os.PathLike, task: str = DEFAULT_TASK) -> list[Path]:
    """Put the task's own files back in `dest`, the folder of an earlier copy, as `copy_task` wrote
    them, and return the other files found there, which are kept untouched (the student's notes,
    say).

    Only what a run made is replaced: the task's files and the caches its commands left in the
    task's folders. A task path that is now of another kind (a folder where a file was) is refused,
    naming it, before anything changes. A link is removed, never followed, and each file is
    replaced, not written through, so nothing outside `dest` and no hard-linked copy is touched.
    """
    dest, source = Path(dest), task_named.unchecked(task).folder
    own = [
        p.relative_to(source)
        for p in sorted(source.rglob("*"))
        if not CACHES & set(p.relative_to(source).parts)
    ]
    folders = [Path(".")] + [where for where in own if (source / where).is_dir()]
    files = [where for where in own if (source / where).is_file()]
    wrong = [
        f"{where} (should be a folder)" for where in folders if _is_other(dest / where, Path.is_dir)
    ]
    wrong += [
        f"{where} (should be a file)" for where in files if _is_other(dest / where, Path.is_file)
    ]
    if wrong:
        raise ValueError(
            f"{dest} cannot take the task's files back: {', '.join(wrong)}. Move them out of "
            "the way, or resume into a new empty folder; nothing was changed."
        )
    for where in folders:
        # a link's target is not ours: drop the link, never write through it
        _unlink_link(dest / where)
        (dest / where).mkdir(exist_ok=True)
        for cache in (dest / where / name for name in CACHES):
            _unlink_link(cache)
            if cache.is_dir():
                shutil.rmtree(cache)
    for where in files:
        (dest / where).unlink(missing_ok=True)
        shutil.copy2(source / where, dest / where)
    known = set(folders) | set(files)
    return sorted(
        p.relative_to(dest)
        for where in folders
        for p in (dest / where).iterdir()
        if p.relative_to(dest) not in known
    )


# Each package registers itself on import; a new scenario adds its name here.
PACKAGES = ("invoicing", "shipping", "repairs", "course", "library")
for _package in PACKAGES:
    importlib.import_module(f"{__name__}.{_package}")

TASK = TASKS[DEFAULT_TASK].prompt  # the lessons' first user message
TASK_DIR = TASKS[DEFAULT_TASK].folder  # the lessons' task files

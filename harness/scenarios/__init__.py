"""The scenarios: the coding tasks the agent fixes and the tutor course, each a plug-in of the glass box.

Each scenario is a package here that, when imported, registers what its glass box knows
(`harness.engine.scenario.register`) and, for a coding task, its files and prompt (`add_task`).
Importing this package imports them all; `harness.connect()` does so before the first call.

>>> sorted(TASKS)
['invoicing', 'shipping']
>>> from tempfile import mkdtemp
>>> root = copy_task(mkdtemp())
>>> sorted(p.name for p in (root / "invoicing").glob("*.py"))
['__init__.py', 'amounts.py', 'discounts.py']

The agent never touches a task's own files: `copy_task` gives it a fresh copy to work in. To add
a task of your own, follow "Adding your own task" in INSTRUCTORS.md.
"""
import importlib
import shutil
from dataclasses import dataclass
from pathlib import Path

DEFAULT_TASK = "invoicing"  # the lessons' task


@dataclass(frozen=True)
class CodingTask:
    """A coding task: the files copied into each run's workspace, and the first user message."""
    name: str
    folder: Path  # README.md, the package, tests/ and a pytest.ini that makes the folder pytest's rootdir
    prompt: str   # what the agent is asked to do

    def __post_init__(self):
        missing = [n for n in ("README.md", "pytest.ini", "tests") if not (Path(self.folder) / n).exists()]
        if missing:
            raise ValueError(f"Task {self.name!r}: {self.folder} lacks {', '.join(missing)}; a task folder holds "
                             "README.md (its rules), its package, tests/ and pytest.ini (see INSTRUCTORS.md).")


TASKS: dict[str, CodingTask] = {}


def add_task(task: CodingTask) -> CodingTask:
    """Make `task` available to `copy_task`, `run_agent(task=...)` and `python -m harness demo --task`."""
    TASKS[task.name] = task
    return task


def task_named(name: str) -> CodingTask:
    """The task called `name`; a ValueError naming the tasks there are."""
    if name not in TASKS:
        raise ValueError(f"No task named {name!r}. Tasks: {', '.join(sorted(TASKS))}. "
                         "A new task is a package under harness/scenarios/ (see INSTRUCTORS.md).")
    return TASKS[name]


def copy_task(dest, task: str = DEFAULT_TASK) -> Path:
    """Copy the task's files into the folder `dest` (created if needed, must be empty) and return it.

    Caches (`__pycache__`, `.pytest_cache`) are left behind so the copy is exactly the task.
    """
    dest = Path(dest)
    if dest.exists() and any(dest.iterdir()):
        raise ValueError(f"copy_task needs an empty folder; {dest} already holds files. "
                         "Pass a new temporary folder, e.g. tempfile.mkdtemp().")
    shutil.copytree(task_named(task).folder, dest, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache"))
    return dest


# Each package registers itself on import; a new scenario adds its name here.
PACKAGES = ("invoicing", "shipping", "course")
for _package in PACKAGES:
    importlib.import_module(f"{__name__}.{_package}")

TASK = TASKS[DEFAULT_TASK].prompt        # the lessons' first user message
TASK_DIR = TASKS[DEFAULT_TASK].folder    # the lessons' task files

"""The lesson task: a small invoicing package with two bugs, shipped as package data.

The agent never touches these files: `copy_task` gives it a fresh copy to work in.

>>> from tempfile import mkdtemp
>>> root = copy_task(mkdtemp())
>>> sorted(p.name for p in (root / "invoicing").glob("*.py"))
['__init__.py', 'amounts.py', 'discounts.py']

The two bugs (both against the README's rules): the bulk discount tests `quantity > BULK_THRESHOLD`
(50) where the rule says "50 units or more", and amounts are quantized in Python's default mode
(half to even) where the rule says half-up. Fixed, `pytest` in the copy prints "6 passed".
Its pytest.ini is verbose (-vv), so the failing run prints about 18,000 characters, as in « Le budget de contexte ».
"""
import shutil
from pathlib import Path

TASK_DIR = Path(__file__).parent / "invoicing"

# The first user message of every run: what the agent is asked to do.
TASK = ("The tests of the invoicing package in your workspace fail. Find out why and fix the code "
        "so that it follows the business rules in README.md, then run the tests to confirm. "
        "When they pass, report what you changed.")


def copy_task(dest) -> Path:
    """Copy the task into the folder `dest` (created if needed, must be empty) and return it.

    Caches (`__pycache__`, `.pytest_cache`) are left behind so the copy is exactly the task.
    """
    dest = Path(dest)
    if dest.exists() and any(dest.iterdir()):
        raise ValueError(f"copy_task needs an empty folder; {dest} already holds files. "
                         "Pass a new temporary folder, e.g. tempfile.mkdtemp().")
    shutil.copytree(TASK_DIR, dest, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache"))
    return dest

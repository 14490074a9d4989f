"""Generate `lessons/` from `solutions/`: every solution body becomes a stub.

In a solution notebook, an exercise's code sits between two marker lines:

        ### BEGIN SOLUTION 3.1
        ...the reference answer...
        ### END SOLUTION

The lesson keeps the indentation of the BEGIN line and gets, in its place:

        # YOUR CODE HERE
        raise NotImplementedError("Exercise 3.1")

Cells tagged `solution-only` are left out of the lesson; outputs and execution counts are cleared.
The cells the grader restores from the pristine lesson are marked in their metadata, with a checksum
of their source, so the grader finds them (by cell id) and sees whether a student changed them:

    check("3.1", build_context)        ->  {"workbook": {"check": "3.1", "checksum": "sha256:..."}}
    from harness.checks import check   ->  {"workbook": {"import": true, "checksum": "sha256:..."}}

Markdown files beside the notebooks (the glossary) are copied unchanged.
"""

import hashlib
import json
import re
import sys
from pathlib import Path

import nbformat

from harness.workbook import LESSONS, SOLUTIONS, keep_backup

BEGIN = re.compile(r"^(?P<indent>[ \t]*)### BEGIN SOLUTION(?: (?P<id>\d+\.\d+))?[ \t]*$")
END = re.compile(r"^[ \t]*### END SOLUTION[ \t]*$")
# A check cell is this call and nothing else; the import cell is the one that imports `check`.
CHECK_CELL = re.compile(
    r"""\s*check\(\s*["'](?P<id>\d+\.\d+)["']\s*,\s*(?P<name>[A-Za-z_]\w*)\s*\)\s*"""
)
IMPORT_OF_CHECK = re.compile(r"^from harness\.checks import .*\bcheck\b", re.MULTILINE)


class BuildError(ValueError):
    """A solution notebook's markers are malformed; the message names the notebook and cell."""


def stub_source(source: str, where: str = "cell") -> str:
    """Replace each marked solution block of `source` by a stub.

    >>> print(stub_source("def f():\\n    ### BEGIN SOLUTION 1.1\\n    return 1\\n    ### END SOLUTION"))
    def f():
        # YOUR CODE HERE
        raise NotImplementedError("Exercise 1.1")
    """
    out, inside = [], None
    for line in source.split("\n"):
        begin = BEGIN.match(line)
        if begin:
            if inside:
                raise BuildError(
                    f"{where}: a BEGIN SOLUTION inside another one; close the first with ### END"
                    " SOLUTION."
                )
            if not begin["id"]:
                raise BuildError(
                    f"{where}: ### BEGIN SOLUTION needs an exercise id, e.g. '### BEGIN SOLUTION"
                    " 3.1'."
                )
            inside = begin
        elif END.match(line):
            if not inside:
                raise BuildError(f"{where}: ### END SOLUTION without a BEGIN SOLUTION before it.")
            out += [
                f"{inside['indent']}# YOUR CODE HERE",
                f'{inside["indent"]}raise NotImplementedError("Exercise {inside["id"]}")',
            ]
            inside = None
        elif not inside:
            out.append(line)
    if inside:
        raise BuildError(
            f"{where}: ### BEGIN SOLUTION {inside['id']} is never closed with ### END SOLUTION."
        )
    return "\n".join(out)


def checksum(source: str) -> str:
    return "sha256:" + hashlib.sha256(source.encode("utf-8")).hexdigest()


def protection(source: str) -> dict | None:
    """The grader's mark for a cell it restores (a check cell, the import cell), or None.

    >>> protection('check("3.1", build_context)')["check"]
    '3.1'
    """
    match = CHECK_CELL.fullmatch(source)
    if match:
        return {"check": match["id"], "checksum": checksum(source)}
    if IMPORT_OF_CHECK.search(source):
        return {"import": True, "checksum": checksum(source)}
    return None


def lesson_from_solution(notebook: dict, name: str = "notebook") -> dict:
    """The student's version of a solution notebook (a new dict; the input is not changed)."""
    cells = []
    for index, cell in enumerate(notebook["cells"]):
        if "solution-only" in cell.get("metadata", {}).get("tags", []):
            continue
        cell = dict(cell)
        source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        if cell["cell_type"] == "code":
            source = stub_source(source, f"{name}, cell {index}")
            cell.update(outputs=[], execution_count=None)
            mark = protection(source)
            metadata = {k: v for k, v in cell.get("metadata", {}).items() if k != "workbook"}
            cell["metadata"] = {**metadata, "workbook": mark} if mark else metadata
        cell["source"] = source
        cells.append(cell)
    return {**notebook, "cells": cells}


def render(notebook: dict) -> str:
    """Notebook text exactly as Jupyter saves it (nbformat's canonical form: sources as line lists).

    NOTE: anything else and a student's unchanged Ctrl-S rewrites every cell, so a later upstream
    fix to the lesson no longer merges into their saved copy.
    """
    notebook = nbformat.from_dict(notebook)
    for index, cell in enumerate(notebook.cells):
        # nbformat would invent a random id: keep builds reproducible
        cell.setdefault("id", f"cell-{index}")
    return nbformat.writes(notebook) + "\n"


def expected_lessons(solutions: Path = SOLUTIONS) -> dict[str, str]:
    """Lesson file name -> the text the build would write."""
    lessons = {}
    for path in sorted(solutions.glob("*.ipynb")):
        notebook = json.loads(path.read_text(encoding="utf-8"))
        lessons[path.name] = render(lesson_from_solution(notebook, path.name))
    return lessons


def expected_files(solutions: Path = SOLUTIONS) -> dict[str, str]:
    """Every file of lessons/ -> its text: the lessons, and the markdown beside them (the
    glossary), as it is."""
    copies = {
        path.name: path.read_text(encoding="utf-8") for path in sorted(solutions.glob("*.md"))
    }
    return expected_lessons(solutions) | copies


def stale_lessons(solutions: Path = SOLUTIONS, lessons: Path = LESSONS) -> list[str]:
    """Names of lessons that are missing or differ from what the build would write."""
    return [
        name
        for name, text in expected_files(solutions).items()
        if not (lessons / name).is_file() or (lessons / name).read_text(encoding="utf-8") != text
    ]


def build(solutions: Path = SOLUTIONS, lessons: Path = LESSONS) -> list[tuple[str, Path | None]]:
    """Write every lesson that changed; return (name, backup of the replaced file or None).

    Only `lessons/` is touched. A lesson being replaced may hold a student's work, so it is copied
    to a timestamped backup beside it first.
    """
    lessons.mkdir(exist_ok=True)
    written = []
    for name, text in expected_files(solutions).items():
        target = lessons / name
        if target.is_file() and target.read_text(encoding="utf-8") == text:
            continue
        backup = keep_backup(target) if target.is_file() else None
        target.write_text(text, encoding="utf-8")
        written.append((name, backup))
    return written


def main(argv: list[str]) -> int:
    if argv == ["--check"]:
        stale = stale_lessons()
        if stale:
            print(
                f"lessons/ is out of date for: {', '.join(stale)}. Run `python -m harness build`"
                " and commit."
            )
            return 1
        print("lessons/ is up to date with solutions/.")
        return 0
    if argv:
        print("usage: python -m harness build [--check]", file=sys.stderr)
        return 2
    written = build()
    for name, backup in written:
        print(
            f"wrote lessons/{name}"
            + (f" (the previous version is kept as {backup.name})" if backup else "")
        )
    print(
        f"{len(written)} lesson(s) rebuilt from solutions/."
        if written
        else "lessons/ was already up to date."
    )
    return 0

"""The copy of a student's notebook that the grader runs: their code, the lesson's own check cells.

    >>> prepared = prepare(student_notebook, pristine_lesson)                        # doctest: +SKIP
    >>> [(c.exercise, c.name) for c in prepared.checks]                                   # doctest: +SKIP
    [('3.1', 'build_context'), ('3.2', 'build_context')]
    >>> prepared.notes                                                                    # doctest: +SKIP
    ['the check cell of 3.2 was edited: the lesson's own was run instead']

Every cell the build marked (`build.protection`: each `check("N.M", fn)` cell and the import cell)
is taken from the pristine lesson, found in the student's notebook by cell id, else by identical
source, else put back after the cell that precedes it in the lesson. A student's cell keeps only
its source: outputs (possibly forged), tags (`raises-exception`, `skip-execution`) and metadata
(a claimed `workbook` mark) are dropped, so nothing in the file decides how it is graded.
No cell of the grader's is added: the grader checks each exercise outside the kernel (`verify.py`).
"""

from dataclasses import dataclass, field

import nbformat
from nbformat.v4 import new_code_cell

from harness.workbook.build import CHECK_CELL, protection


@dataclass
class CheckCell:
    exercise: str
    name: str  # the function the cell checks, e.g. "build_context"
    check_index: int  # position in the prepared notebook


@dataclass
class Prepared:
    notebook: nbformat.NotebookNode
    checks: list[CheckCell] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what was restored, for the "needs a look" list


def _source(cell) -> str:
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


def _mark(cell) -> dict | None:
    """A pristine cell's protection: from its metadata, else recomputed (a lesson built before
    marks)."""
    return cell.get("metadata", {}).get("workbook") or (
        protection(_source(cell)) if cell["cell_type"] == "code" else None
    )


def _what(mark: dict) -> str:
    return f"the check cell of {mark['check']}" if "check" in mark else "the import cell"


def prepare(student: nbformat.NotebookNode, pristine: nbformat.NotebookNode) -> Prepared:
    """The notebook to run, the check cells in it, and notes on what had to be restored."""
    protected = [(i, cell, _mark(cell)) for i, cell in enumerate(pristine.cells) if _mark(cell)]
    cells = [
        nbformat.from_dict(
            {
                "cell_type": c["cell_type"],
                "source": _source(c),
                "metadata": {},
                "id": c.get("id") or f"student-{i}",
                **({"outputs": [], "execution_count": None} if c["cell_type"] == "code" else {}),
            }
        )
        for i, c in enumerate(student.cells)
        if c.get("cell_type") in ("code", "markdown", "raw")
    ]
    owner = [None] * len(cells)  # the pristine cell each student cell stands for
    notes = []
    for index, cell, mark in protected:
        source = _source(cell)
        by_id = [
            j for j, c in enumerate(cells) if owner[j] is None and c.get("id") == cell.get("id")
        ]
        by_source = [
            j
            for j, c in enumerate(cells)
            if owner[j] is None and c["source"].strip() == source.strip()
        ]
        if by_id or by_source:
            j = (by_id or by_source)[0]
            if cells[j]["source"].strip() != source.strip():
                notes.append(f"{_what(mark)} was edited: the lesson's own was run instead")
        else:  # put it back after the student's copy of the lesson cell just before it
            ids = [c.get("id") for c in cells]
            before = [ids.index(p.get("id")) for p in pristine.cells[:index] if p.get("id") in ids]
            j = max(before) + 1 if before else min(index, len(cells))
            cells.insert(j, None)
            owner.insert(j, None)
            notes.append(f"{_what(mark)} was deleted: the lesson's own was put back")
        cells[j] = new_code_cell(
            source, metadata={"workbook": mark}, id=cell.get("id") or f"protected-{index}"
        )
        owner[j] = index
    checks = []
    for index, cell in enumerate(cells):
        mark = cell["metadata"].get("workbook") or {}
        if "check" in mark:
            checks.append(
                CheckCell(mark["check"], CHECK_CELL.fullmatch(cell["source"])["name"], index)
            )
    notebook = nbformat.v4.new_notebook(
        cells=cells,
        metadata={
            "kernelspec": {"name": "python3", "language": "python", "display_name": "Python 3"}
        },
    )
    return Prepared(notebook, checks, notes)

"""Where each cell of the cookbook benchmark that is not clean comes from, and whose fault it is.

benchmarks/cookbook_counts.py runs the cells and classifies each one; this module traces a failure
back to the cell it follows and writes the triage table (benchmarks/cookbook_triage.md). A NameError
follows the last earlier cell binding the missing name; a silent or crashed cell without one may
have read a name whose last binder failed (a `response` left from the cell before a refused built-in
tool). Whose fault, by rule (FAULTS): the cell's own class, else its root's; what no rule decides is
the glass box's until someone reads the cell.
"""

import builtins
import keyword
import re
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Cell:
    """One code cell of a notebook and what became of it."""

    # its position in the notebook, markdown cells included (as Colab and Jupyter number them)
    index: int
    source: str  # the cookbook's source
    outcome: str  # one of CLASSES, "package" (not counted) or "left out"
    detail: str  # the error, the start of what it printed, or why it was left out


# Names a cell reads that no cell binds (keywords, builtins, the worker's display helpers).
PYTHON_WORDS = set(keyword.kwlist) | set(dir(builtins)) | {"display", "Markdown", "HTML", "Image"}


def defines(source: str, name: str) -> bool:
    """Whether the cell's source binds `name` (assignment, def, class, import, for, with ... as)."""
    word = re.escape(name)
    return any(
        re.search(pattern, source, re.MULTILINE)
        for pattern in (
            rf"^[ \t]*(async[ \t]+)?(def|class)[ \t]+{word}\b",
            rf"^[ \t]*([\w.]+[ \t]*,[ \t]*)*{word}[ \t]*(:[^=\n]*)?(,[^=\n]*)?=(?!=)",
            rf"^[ \t]*(from[ \t]+\S+[ \t]+)?import[ \t][^\n]*\b{word}\b",
            rf"\bas[ \t]+{word}\b",
            rf"\bfor[ \t]+[\w, \t]*\b{word}\b[\w, \t]*[ \t]in\b",
        )
    )


def root_of(cells: list[Cell], position: int) -> Cell | None:
    """The cell whose failure (or absence) a NameError in cells[position] follows: the last
    earlier cell binding the missing name, followed further back when that cell is itself such a
    NameError."""
    seen = set()
    while (
        found := re.search(r"NameError: name '(\w+)'", cells[position].detail)
    ) and position not in seen:
        seen.add(position)
        earlier = [i for i in range(position) if defines(cells[i].source, found.group(1))]
        if not earlier:
            return None
        position = earlier[-1]
    return cells[position]


def stale_input(cells: list[Cell], position: int) -> Cell | None:
    """For a silent or crashed cell without a NameError: the latest earlier cell that failed (or was
    left out) while binding a name this cell reads, so the cell read an older value (a `response` of
    the cell before the refused one, whose grounding_metadata is None). None when every input came
    from clean cells.
    """
    source = cells[position].source
    failed = None
    for name in set(re.findall(r"\b[A-Za-z_]\w*\b", source)) - PYTHON_WORDS:
        if defines(source, name):
            continue  # the cell makes it itself
        binders = [i for i in range(position) if defines(cells[i].source, name)]
        if binders and cells[binders[-1]].outcome != "clean":
            failed = max(failed or 0, binders[-1])
    return None if failed is None else root_of(cells, failed) or cells[failed]


FAULTS = {  # whose fault a class is, when the cell's own class decides it
    "package": "package not installed",
    "client": "cookbook or SDK (fails on Gemini too)",
    "left out": "left out (media, Files or Live API)",
}
BUILT_IN_TOOL = (  # in the glass box's 400 for google_search, code_execution, url_context...
    "built-in tool"
)
NOTES_MARK = "<!-- notes: kept when the table is written again -->"


def whose_fault(cell: Cell, root: Cell | None) -> str:
    """Whose fault a cell that is not clean is: its own class's, a refused built-in tool, or its
    root's."""
    if cell.outcome in FAULTS:
        return FAULTS[cell.outcome]
    if BUILT_IN_TOOL in cell.detail:
        return "deliberate refusal (built-in tool)"
    if root is not None and root is not cell:
        return whose_fault(root, None) if root.outcome != "clean" else "glass box"
    return "glass box"


def traced(cells: list[Cell]) -> list[tuple[Cell, Cell | None]]:
    """Each cell that is not clean (and not left out) with the cell it follows, if any."""
    rows = []
    for position, cell in enumerate(cells):
        if cell.outcome in ("clean", "left out"):
            continue
        root = (
            root_of(cells, position)
            if cell.detail.startswith("NameError")
            else stale_input(cells, position)
            if cell.outcome in ("silent", "crash")
            else None
        )
        rows.append((cell, root))
    return rows


def report_of(cells: list[Cell], stem: str) -> list[str]:
    """The lines of the cells that are not clean; a failure names the cell it follows."""
    lines = []
    for cell, root in traced(cells):
        detail = cell.detail
        if root is not None:
            how = "after" if cell.detail.startswith("NameError") else "reads what"
            detail += (
                f" [{how} cell {root.index}{' left' if how == 'reads what' else ''}:"
                f" {root.outcome}, {root.detail[:70]}]"
            )
        elif cell.detail.startswith("NameError"):
            detail += " [no earlier cell binds it]"
        lines.append(f"  {cell.outcome:7} {stem} cell {cell.index}: {detail}")
    return lines


def write_triage(path: Path, editions: dict[str, dict[str, list[Cell]]], heading: str) -> None:
    """The triage table of every cell that is not clean, per edition; the notes after NOTES_MARK
    in an existing file are kept."""
    notes = path.read_text().partition(NOTES_MARK)[2] if path.exists() else "\n"
    lines = [
        heading,
        "",
        "| edition | cell | class | cause | whose fault |",
        "|---|---|---|---|---|",
    ]
    for edition, notebooks in editions.items():
        for stem, cells in notebooks.items():
            for cell, root in traced(cells):
                cause = _cell_text(cell.detail)
                if root is not None and root is not cell:
                    cause += (
                        f" (follows cell {root.index}: {root.outcome}, {_cell_text(root.detail)})"
                    )
                lines.append(
                    f"| {edition} | {stem} {cell.index} | {cell.outcome} | {cause} | "
                    f"{whose_fault(cell, root)} |"
                )
    path.write_text("\n".join(lines) + "\n\n" + NOTES_MARK + notes)


def _cell_text(detail: str) -> str:
    """A detail fit for one table cell: one line, no pipes, the glass box's message without its
    JSON."""
    # the worker cut the error at 160 chars
    found = re.search(r"'message': [\"'](.*?)([\"'], '|$)", detail)
    text = f"{detail.split(':')[0]}: {found.group(1)}" if found else detail
    return re.sub(r"\s+", " ", text).replace("|", "/")[:150] or "(printed nothing)"

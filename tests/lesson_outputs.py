"""A lesson's code cells run once, in order, in this process, with what each printed: the figures
a claims test compares the lesson's sentences with (lesson 11 first ran its claims this way).

Panels and the quiz are left out (cells marked NBVAL_IGNORE_OUTPUT only draw). The glass box is
deterministic, so each figure is the one the executed notebook prints.
"""

import contextlib
import io
import os

from test_lesson_claims import notebook


def executed(lesson: str, last: int | None = None, panels: bool = False) -> dict:
    """The names the lesson's code cells (up to cell `last`) define; `_printed` maps each cell's
    index to what it printed. `panels`: run the panel cells too (some define names used below)."""
    os.environ["WORKBOOK_OFFLINE"] = "1"
    scope, printed = {}, {}
    cells = notebook(lesson).cells
    for index, cell in enumerate(cells[: None if last is None else last + 1]):
        drawn = "NBVAL_IGNORE_OUTPUT" in cell.source and (not panels or "quiz(" in cell.source)
        if cell.cell_type == "code" and not drawn:
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                code = compile(cell.source, f"{lesson}-cell-{index}", "exec")
                exec(code, scope)  # noqa: S102 - our own lesson's cell
            printed[index] = out.getvalue()
    scope["_printed"] = printed
    return scope


def cell_index(lesson: str, fragment: str) -> int:
    """The index of the first cell whose source holds `fragment`."""
    return next(i for i, cell in enumerate(notebook(lesson).cells) if fragment in cell.source)


def printed_by(scope: dict, lesson: str, fragment: str) -> str:
    """What the first code cell holding `fragment` printed."""
    return scope["_printed"][cell_index(lesson, fragment)]

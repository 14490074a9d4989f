"""Each lesson 00-12 run top to bottom with a wrong answer in every exercise: no cell shows an error
and the quiz renders. A failed check hands the cells below the harness's function (`mine`), so a
student who is stuck still sees the rest of the lesson work.

Two runs per lesson: the wrong answers of the fixtures (one per exercise, each failing its check on
a named rule), and answers that raise (the crash a half-written function gives). Each wrong answer
is put in the solution's own exercise cell, after its definition, as a student's would be.
"""

import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
TESTS = Path(__file__).resolve().parent
LESSONS = sorted(
    path for path in (ROOT / "solutions").glob("[01][0-9]_*.ipynb") if "capstone" not in path.name
)

# The fixture each exercise gets, as an expression over the three fixture modules.
FIXTURES = {
    "0.1": "w03.usage_crashing_on_none",
    "1.1": "w03.sizes_as_a_generator",
    "2.1": "w03.prefix_indexing_b_by_a",
    "3.1": "w03.flawed('newest first')",
    "3.2": "w03.flawed('docs first')",
    "4.1": "w46.tail_by_negative_index",
    "4.2": "w46.empty_string_for_none",
    "4.3": "w46.masks_in_place",
    "5.1": "w46.every_message",
    "5.2": "w46.summary_as_its_own_message",
    "5.3": "w46.never_refuses",
    "6.1": "w46.all_on_one_line",
    "6.2": "w46.state_before_the_summary",
    "7.1": "wrong79('7.1', 'multiplies by the per-million rate per token')",
    "7.2": "wrong79('7.2', 'clips the price at zero')",
    "8.1": "wrong79('8.1', 'any key point, not all')",
    "8.2": "wrong79('8.2', 'any compaction at all')",
    "9.1": "w09.calls_as_tool_outputs",
    "9.2": "w09.always_compacts_first",
    "10.1": "w10.largest_first",
    "10.2": "w10.last_text_wins",
    "11.1": "w11.input_only",
    "12.1": "w12.ties_by_first_seen",
    "12.2": "w12.stops_at_the_first_misfit",
    "13.1": "w13.omitted_line_not_counted",
    "13.2": "w13.older_wins",
}
IMPORTS = f"""import sys
sys.path.insert(0, {str(TESTS)!r})
import test_wrong_answers_00_03 as w03, test_wrong_answers_04_06 as w46, test_wrong_answers_07_14 as w714
import test_wrong_answers_09 as w09
import test_wrong_answers_10 as w10
import test_wrong_answers_11 as w11
import test_wrong_answers_12 as w12
import test_wrong_answers_13 as w13

def wrong79(exercise, what):
    return next(fn for ex, said, fn, _ in w714.WRONG if (ex, said) == (exercise, what))

def raising(*args, **kwargs):
    raise TypeError("a half-written answer")
"""
_SOLUTION = re.compile(r"### BEGIN SOLUTION (\d+\.\d+)")


def with_wrong_answers(path: Path, raise_instead: bool) -> nbformat.NotebookNode:
    """The solution notebook with each exercise's function replaced, in its own cell, by a wrong
    one."""
    notebook = nbformat.read(path, as_version=4)
    cells, seen = [], []
    for cell in notebook.cells:
        cells.append(cell)
        found = _SOLUTION.search(cell.source) if cell.cell_type == "code" else None
        if found:
            exercise = found.group(1)
            name = re.search(r"^def (\w+)", cell.source, re.M).group(1)
            wrong = "raising" if raise_instead else FIXTURES[exercise]
            cell.source += f"\n\n{name} = {wrong}  # the wrong answer under test"
            seen.append(exercise)
    first_code = next(i for i, c in enumerate(cells) if c.cell_type == "code")
    cells.insert(first_code, nbformat.v4.new_code_cell(IMPORTS))
    notebook.cells = cells
    assert seen, f"{path.name} has no exercise cell"
    return notebook


def errors_shown(notebook) -> list[str]:
    """Every error a cell shows: an error output, or a traceback written to a stream."""
    shown = []
    for index, cell in enumerate(notebook.cells):
        for output in cell.get("outputs", []):
            text = output.get("text", "") if output.output_type == "stream" else ""
            if output.output_type == "error" or "Traceback" in text:
                first = cell.source.splitlines()[0] if cell.source else ""
                shown.append(
                    f"cell {index} ({first[:60]!r}): {output.get('ename', '')} "
                    f"{output.get('evalue', text)[:300]}"
                )
    return shown


@pytest.mark.parametrize("raise_instead", [False, True], ids=["fixtures", "raising"])
@pytest.mark.parametrize("lesson", LESSONS, ids=[p.stem for p in LESSONS])
def test_a_wrong_answer_in_every_exercise_breaks_nothing_below(
    lesson, raise_instead, tmp_path, monkeypatch
):
    # a student's lesson: a failed check shows one line
    monkeypatch.setenv("WORKBOOK_CHECKS_RAISE", "0")
    monkeypatch.setenv("WORKBOOK_OFFLINE", "1")
    notebook = with_wrong_answers(lesson, raise_instead)
    NotebookClient(
        notebook,
        timeout=120,
        kernel_name="python3",
        allow_errors=True,
        resources={"metadata": {"path": str(tmp_path)}},
    ).execute()
    assert errors_shown(notebook) == []
    checks = [c for c in notebook.cells if c.cell_type == "code" and c.source.startswith("check(")]
    lines = [o.get("data", {}).get("text/plain", "") for c in checks for o in c.outputs]
    assert checks and all(line.startswith(("✘", "⚠")) for line in lines), lines
    quiz = [c for c in notebook.cells if c.cell_type == "code" and "quiz(" in c.source]
    assert quiz and all(c.outputs for c in quiz), "the quiz did not render"

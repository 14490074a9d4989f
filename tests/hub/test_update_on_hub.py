"""No fix is lost on the hub: `workbook update` in a student's terminal, with a stale tab.

A student pulls the release and answers exercise 3.1 (the body under the docstring); the instructor
publishes a fix to that docstring (the line next to the student's edit, which nbgitpuller's
`-Xours` drops) and one to a markdown cell the student never touched. The student clicks the link
again, runs `workbook update`, then saves from the tab left open before it (what "File Changed" >
Overwrite does), clicks the link again ("Already up to date") and runs `workbook update` once more.
At the end the file holds the student's answer, the markdown fix in place and the docstring fix
beside their cell, and nothing else changed.
"""
import json
import re

import nbformat

from harness.workbook import SOLUTIONS
from harness.workbook.cell_merge import META, source_of
from harness.workbook.release import commit_to_branch, write_release
from hub_client import Student
from running_hub import CLASS_PASSWORD
from test_hub import LESSON, TARGET, answer

DOCSTRING_FIX = "Fixed docstring (F1)."
MARKDOWN_FIX = "Fixed text (F2)."


def publish_fixes(base, repo):
    """The release again, from solutions whose lesson 03 carries fixes F1 and F2, on branch student."""
    solutions = base / "fixed-solutions"
    solutions.mkdir()
    for path in SOLUTIONS.iterdir():
        if path.suffix in (".ipynb", ".md"):
            (solutions / path.name).write_bytes(path.read_bytes())
    notebook = nbformat.read(solutions / f"{LESSON}.ipynb", as_version=4)
    exercise = next(c for c in notebook.cells if "BEGIN SOLUTION 3.1" in c.source)
    exercise.source = re.sub(r"(?m)^(    ''')(.*)('''\n    ### BEGIN SOLUTION 3\.1)", rf"\1\2 {DOCSTRING_FIX}\3",
                             exercise.source)
    assert DOCSTRING_FIX in exercise.source, "the docstring just above BEGIN SOLUTION 3.1 was not found"
    prose = notebook.cells[2]
    assert prose.cell_type == "markdown"
    prose.source += f"\n\n{MARKDOWN_FIX}"
    nbformat.write(notebook, solutions / f"{LESSON}.ipynb")
    write_release(base / "release-fixed", solutions)
    assert commit_to_branch(base / "release-fixed", "student", repo)
    return exercise.id, prose.id


def test_no_fix_is_lost_to_the_merge_or_a_stale_tab(hub):
    student = Student(hub["url"], "hal")
    student.login(CLASS_PASSWORD)
    student.spawn()
    assert student.git_pull(hub["repo"], "student", TARGET)[-1]["phase"] == "finished"
    path = f"{TARGET}/lessons/{LESSON}.ipynb"
    notebook = student.load(path)
    answer(notebook, "3.1")
    student.save(path, notebook)
    stale_tab = student.load(path)  # the tab left open: what it will save over the update

    exercise_id, prose_id = publish_fixes(hub["base"], hub["repo"])
    assert student.git_pull(hub["repo"], "student", TARGET)[-1]["phase"] == "finished"  # the link, again
    status, said = student.terminal(f"cd ~/{TARGET} && workbook update")
    assert status == 0 and f"cell {exercise_id}" in said and "beside yours" in said, said[-1500:]
    check_nothing_lost(student.load(path), exercise_id, prose_id, notebook)

    student.save(path, stale_tab)  # "File Changed" > Overwrite from the old tab: both fixes gone
    assert MARKDOWN_FIX not in json.dumps(student.load(path))
    assert student.git_pull(hub["repo"], "student", TARGET)[-1]["phase"] == "finished"
    status, said = student.terminal(f"cd ~/{TARGET} && workbook update")
    assert status == 0 and f"cell {prose_id}" in said and f"cell {exercise_id}" in said, said[-1500:]
    check_nothing_lost(student.load(path), exercise_id, prose_id, notebook)
    status, said = student.terminal(f"cd ~/{TARGET} && workbook update")
    assert status == 0 and "nothing to bring back" in said, said[-1500:]


def check_nothing_lost(now, exercise_id, prose_id, answered):
    cells = {cell.id: cell for cell in now.cells}
    mine = {cell.id: cell.source for cell in answered.cells}
    assert cells[exercise_id].source == mine[exercise_id], "the student's answer was changed"
    assert MARKDOWN_FIX in cells[prose_id].source, "the fix to the untouched cell is missing"
    copies = [c for c in now.cells if c.metadata.get(META, {}).get("update_of") == exercise_id]
    assert len(copies) == 1 and DOCSTRING_FIX in source_of(copies[0]), "the docstring fix is not beside the answer"
    others = {i: s for i, s in mine.items() if i not in (exercise_id, prose_id)}
    assert others == {i: cells[i].source for i in others}, "another cell changed"

"""`python -m harness reset NN`: the pristine lesson comes back and the student's version is kept."""
import json
import subprocess
import sys

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook

from harness.workbook import ROOT
from harness.workbook.build import expected_lessons
from harness.workbook.reset import UnknownLesson, reset

SOLUTION = "def double(x):\n    ### BEGIN SOLUTION 99.1\n    return 2 * x\n    ### END SOLUTION"


@pytest.fixture
def course(tmp_path):
    """A one-lesson course: solutions/03_budgeted_assembly.ipynb and its built lesson."""
    solutions, lessons = tmp_path / "solutions", tmp_path / "lessons"
    solutions.mkdir()
    lessons.mkdir()
    nbformat.write(new_notebook(cells=[new_code_cell(SOLUTION)]), solutions / "03_budgeted_assembly.ipynb")
    pristine = expected_lessons(solutions)["03_budgeted_assembly.ipynb"]
    (lessons / "03_budgeted_assembly.ipynb").write_text(pristine, encoding="utf-8")
    return solutions, lessons, pristine


def students_version(pristine: str) -> str:
    notebook = json.loads(pristine)
    notebook["cells"][0]["source"] = "def double(x):\n    return x * 2  # my answer"
    return json.dumps(notebook)


def test_reset_restores_the_pristine_lesson_and_keeps_the_students_work(course):
    solutions, lessons, pristine = course
    lesson = lessons / "03_budgeted_assembly.ipynb"
    lesson.write_text(students_version(pristine), encoding="utf-8")
    target, backup, written = reset("03", solutions, lessons)
    assert written and target == lesson
    assert lesson.read_text(encoding="utf-8") == pristine
    assert backup.parent == lessons and backup.name.startswith("03_budgeted_assembly.backup-")
    assert "# my answer" in backup.read_text(encoding="utf-8")


def test_reset_never_deletes_earlier_backups(course):
    solutions, lessons, pristine = course
    lesson = lessons / "03_budgeted_assembly.ipynb"
    for _ in range(2):  # two resets in the same second must not overwrite the first backup
        lesson.write_text(students_version(pristine), encoding="utf-8")
        reset("3", solutions, lessons)
    assert len(list(lessons.glob("03_budgeted_assembly.backup-*.ipynb"))) == 2


def test_an_already_pristine_lesson_is_left_alone(course):
    solutions, lessons, _ = course
    before = sorted(p.name for p in lessons.iterdir())
    assert reset("03_budgeted_assembly", solutions, lessons)[1:] == (None, False)
    assert sorted(p.name for p in lessons.iterdir()) == before


def test_a_missing_lesson_is_written_without_a_backup(course):
    solutions, lessons, pristine = course
    (lessons / "03_budgeted_assembly.ipynb").unlink()
    _, backup, written = reset("03", solutions, lessons)
    assert written and backup is None
    assert (lessons / "03_budgeted_assembly.ipynb").read_text(encoding="utf-8") == pristine


def test_an_unknown_lesson_is_refused_with_the_list_of_lessons(course):
    solutions, lessons, _ = course
    with pytest.raises(UnknownLesson, match=r"No lesson '12'.*Lessons: 03_budgeted_assembly"):
        reset("12", solutions, lessons)
    assert sorted(p.name for p in lessons.iterdir()) == ["03_budgeted_assembly.ipynb"]


def test_the_command_line_reports_an_unknown_lesson():
    done = subprocess.run([sys.executable, "-m", "harness", "reset", "99"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "No lesson '99'" in done.stderr and "Lessons:" in done.stderr

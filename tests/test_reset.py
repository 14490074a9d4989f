"""`workbook reset NN`: the pristine lesson comes back, the student's version is kept, and a lesson
open in JupyterLab is never written under its tab."""

import json
import subprocess
import sys

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook
from running_jupyter import jupyter_server

from harness.workbook import PRISTINE, ROOT, Workbook
from harness.workbook.build import expected_lessons
from harness.workbook.reset import LessonOpen, UnknownLesson, reset

SOLUTION = "def double(x):\n    ### BEGIN SOLUTION 99.1\n    return 2 * x\n    ### END SOLUTION"
LESSON = "03_budgeted_assembly.ipynb"


@pytest.fixture
def course(tmp_path, monkeypatch):
    """A one-lesson course: solutions/03_budgeted_assembly.ipynb and its built lesson."""
    # no real server of this machine counts
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path / "runtime"))
    solutions, lessons = tmp_path / "solutions", tmp_path / "lessons"
    solutions.mkdir()
    lessons.mkdir()
    nbformat.write(new_notebook(cells=[new_code_cell(SOLUTION)]), solutions / LESSON)
    pristine = expected_lessons(solutions)[LESSON]
    (lessons / LESSON).write_text(pristine, encoding="utf-8")
    return Workbook(tmp_path, lessons), pristine


def students_version(pristine: str) -> str:
    notebook = json.loads(pristine)
    notebook["cells"][0]["source"] = "def double(x):\n    return x * 2  # my answer"
    return json.dumps(notebook)


def test_reset_restores_the_pristine_lesson_and_keeps_the_students_work(course):
    workbook, pristine = course
    lesson = workbook.lessons / LESSON
    lesson.write_text(students_version(pristine), encoding="utf-8")
    target, backup, written, _ = reset("03", workbook)
    assert written and target == lesson
    assert lesson.read_text(encoding="utf-8") == pristine
    assert backup.parent == workbook.lessons and backup.name.startswith(
        "03_budgeted_assembly.backup-"
    )
    assert "# my answer" in backup.read_text(encoding="utf-8")


def test_reset_never_deletes_earlier_backups(course):
    workbook, pristine = course
    lesson = workbook.lessons / LESSON
    for _ in range(2):  # two resets in the same second must not overwrite the first backup
        lesson.write_text(students_version(pristine), encoding="utf-8")
        reset("3", workbook)
    assert len(list(workbook.lessons.glob("03_budgeted_assembly.backup-*.ipynb"))) == 2


def test_an_already_pristine_lesson_is_left_alone(course):
    workbook, _ = course
    before = sorted(p.name for p in workbook.lessons.iterdir())
    assert reset("03_budgeted_assembly", workbook)[1:3] == (None, False)
    assert sorted(p.name for p in workbook.lessons.iterdir()) == before


def test_a_missing_lesson_is_written_without_a_backup(course):
    workbook, pristine = course
    (workbook.lessons / LESSON).unlink()
    _, backup, written, _ = reset("03", workbook)
    assert written and backup is None
    assert (workbook.lessons / LESSON).read_text(encoding="utf-8") == pristine


def test_an_unknown_lesson_is_refused_with_the_list_of_lessons(course):
    workbook, _ = course
    with pytest.raises(UnknownLesson, match=r"No lesson '12'.*Lessons: 03_budgeted_assembly"):
        reset("12", workbook)
    assert sorted(p.name for p in workbook.lessons.iterdir()) == [LESSON]


def test_a_release_resets_from_its_pristine_copy(tmp_path, monkeypatch):
    """A student's release has no solutions/: .workbook/pristine/ holds the lessons as handed
    out."""
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path / "runtime"))
    (tmp_path / PRISTINE).mkdir(parents=True)
    (tmp_path / "lessons").mkdir()
    pristine = nbformat.writes(new_notebook(cells=[new_code_cell("x = 1")])) + "\n"
    (tmp_path / PRISTINE / LESSON).write_text(pristine, encoding="utf-8")
    (tmp_path / "lessons" / LESSON).write_text(
        pristine.replace("x = 1", "x = 2  # mine"), encoding="utf-8"
    )
    _, backup, written, _ = reset("03", Workbook(tmp_path, tmp_path / "lessons"))
    assert written and (tmp_path / "lessons" / LESSON).read_text(encoding="utf-8") == pristine
    assert "# mine" in backup.read_text(encoding="utf-8")


def test_a_copy_without_pristine_lessons_says_how_to_get_them(tmp_path):
    (tmp_path / "lessons").mkdir()
    with pytest.raises(UnknownLesson, match="neither solutions/.*nor .workbook/pristine/"):
        reset("03", Workbook(tmp_path, tmp_path / "lessons"))


def test_a_lesson_open_in_jupyterlab_is_refused_with_what_to_click(course, tmp_path):
    """A real jupyter_server with a session on the lesson (what an open tab that ran a cell has)."""
    workbook, pristine = course
    lesson = workbook.lessons / LESSON
    lesson.write_text(students_version(pristine), encoding="utf-8")
    with jupyter_server(tmp_path, tmp_path / "runtime") as server:
        session = server.open_notebook(f"lessons/{LESSON}")
        with pytest.raises(LessonOpen) as refused:
            reset("03", workbook)
        message = str(refused.value)
        assert "is open in JupyterLab" in message and server.url in message
        assert "Ctrl+S" in message and "File > Close and Shut Down Notebook" in message
        assert "Reload" not in message  # reloading from disk throws the unsaved edit away
        assert "# my answer" in lesson.read_text(encoding="utf-8")  # nothing written
        assert not list(workbook.lessons.glob("*.backup-*"))
        server.call("DELETE", f"api/sessions/{session['id']}")  # the tab closed and shut down
        _, backup, written, state = reset("03", workbook)
    assert written and state.open_at == [] and lesson.read_text(encoding="utf-8") == pristine
    assert "# my answer" in backup.read_text(encoding="utf-8")


def test_a_server_that_cannot_be_asked_gets_a_warning_and_both_versions_kept(course, tmp_path):
    workbook, pristine = course
    lesson = workbook.lessons / LESSON
    lesson.write_text(students_version(pristine), encoding="utf-8")
    with jupyter_server(tmp_path, tmp_path / "runtime") as server:
        runtime_file = next((tmp_path / "runtime").glob("jpserver-*.json"))
        info = json.loads(runtime_file.read_text())
        # the server says 403
        runtime_file.write_text(json.dumps({**info, "token": "not-the-token"}))
        done = subprocess.run(
            [sys.executable, "-m", "harness", "reset", "03", "--lessons", str(workbook.root)],
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert done.returncode == 0, done.stderr
    assert f"Could not ask the Jupyter server at {server.url}" in done.stdout
    assert "Save Notebook As" in done.stdout and "Reload" not in done.stdout
    assert lesson.read_text(encoding="utf-8") == pristine
    assert "# my answer" in next(workbook.lessons.glob("*.backup-*")).read_text(encoding="utf-8")


def test_the_command_line_reports_an_unknown_lesson():
    done = subprocess.run(
        [sys.executable, "-m", "harness", "reset", "99"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "No lesson '99'" in done.stderr and "Lessons:" in done.stderr


def test_the_command_line_outside_any_workbook_says_where_to_run_it(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "harness", "reset", "03"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (
        done.returncode == 2 and "No lessons found in" in done.stderr and "--lessons" in done.stderr
    )

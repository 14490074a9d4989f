"""`python -m harness check`: runs copies of the lessons and reports each exercise's status.

The lessons of the course change while it is written, so these tests use small notebooks of their
own: a first cell registers two exercises (99.1 double, 99.2 triple), the next cells hold the
student's answers and the check cells, as a real lesson does. Other test modules import
`write_fake_lesson` from here.
"""

import hashlib
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from harness.workbook import PRISTINE, ROOT, LessonsNotFound, find_workbook
from harness.workbook.check import LessonNotFound, find_lesson, format_table
from harness.workbook.runner import Result, exercise_ids, run_notebooks

REGISTER_EXERCISES = """from harness.checks import call, check, exercise, rule

@exercise("99.1", "double a number", "operator.neg")
def _double(fn):
    rule(call("99.1", fn, 2) == 4, "99.1", "double(2) should be 4.", "Multiply, do not add one.")

@exercise("99.2", "triple a number", "operator.neg")
def _triple(fn):
    rule(call("99.2", fn, 2) == 6, "99.2", "triple(2) should be 6.", "Three times the number.")
"""
STUB = "    # YOUR CODE HERE\n    raise NotImplementedError('Exercise {}')"


def write_fake_lesson(
    path: Path,
    double: str = STUB.format("99.1"),
    triple: str = STUB.format("99.2"),
    extra: tuple[str, ...] = (),
    checks: tuple[str, ...] = ("99.1", "99.2"),
) -> Path:
    """A two-exercise lesson; `double`/`triple` are function bodies (default: the stub)."""
    cells = [
        new_markdown_cell("# A fake lesson"),
        new_code_cell(REGISTER_EXERCISES),
        new_code_cell(f"def double(x):\n{double}"),
    ]
    cells += [new_code_cell('check("99.1", double)')] if "99.1" in checks else []
    cells += [new_code_cell(f"def triple(x):\n{triple}")]
    cells += [new_code_cell('check("99.2", triple)')] if "99.2" in checks else []
    cells += [new_code_cell(source) for source in extra]
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(new_notebook(cells=cells), path)
    return path


def digest(folder: Path) -> dict[str, str]:
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.glob("*.ipynb"))
    }


def run_check(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "harness", "check", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture(scope="module")
def checked(tmp_path_factory):
    """One CLI run over three notebooks: solved, mixed, and one with a stray failing cell."""
    folder = tmp_path_factory.mktemp("lessons")
    write_fake_lesson(folder / "91_solved.ipynb", "    return 2 * x", "    return 3 * x")
    write_fake_lesson(folder / "92_mixed.ipynb", "    return x + 1")
    write_fake_lesson(
        folder / "93_stray.ipynb", "    return 2 * x", "    return 3 * x", extra=("1/0",)
    )
    before = digest(folder)
    done = run_check(*(str(p) for p in sorted(folder.glob("*.ipynb"))))
    return folder, before, done


def test_each_exercise_gets_its_status_and_the_checks_words(checked):
    _, _, done = checked
    rows = [line.split()[:3] for line in done.stdout.splitlines() if line.startswith("9")]
    assert ["91_solved", "99.1", "passed"] in rows and ["91_solved", "99.2", "passed"] in rows
    assert ["92_mixed", "99.1", "failed"] in rows
    assert ["92_mixed", "99.2", "not"] in rows  # "not attempted"
    assert (
        "double(2) should be 4." in done.stdout and "Hint: Multiply, do not add one." in done.stdout
    )


def test_a_failing_cell_outside_the_checks_is_reported_by_its_first_line(checked):
    _, _, done = checked
    assert 'the cell starting "1/0": ZeroDivisionError' in done.stdout


def test_the_notebooks_are_not_modified(checked):
    folder, before, _ = checked
    assert digest(folder) == before
    assert not list(folder.glob("*.backup-*")) and len(before) == 3


def test_exit_status_is_1_unless_everything_passed(checked, tmp_path):
    assert checked[2].returncode == 1
    solved = write_fake_lesson(tmp_path / "91_solved.ipynb", "    return 2 * x", "    return 3 * x")
    done = run_check(str(solved))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 passed." in done.stdout


def test_an_unknown_lesson_says_so_and_lists_the_lessons(tmp_path):
    write_fake_lesson(tmp_path / "03_budgeted_assembly.ipynb")
    with pytest.raises(LessonNotFound, match=r"No lesson '12'.*Lessons: 03_budgeted_assembly"):
        find_lesson("12", tmp_path)
    done = run_check("no_such_lesson_here")
    assert done.returncode == 2 and "No lesson 'no_such_lesson_here'" in done.stderr


def test_a_lesson_is_found_by_number_name_or_path(tmp_path):
    lesson = write_fake_lesson(tmp_path / "03_budgeted_assembly.ipynb")
    write_fake_lesson(tmp_path / "03_budgeted_assembly.backup-20250101-000000.ipynb")
    assert find_lesson("3", tmp_path) == find_lesson("03", tmp_path) == lesson
    assert find_lesson("03_budgeted_assembly", tmp_path) == find_lesson(str(lesson)) == lesson


def test_a_function_that_never_ends_fails_its_exercise_only(tmp_path):
    lesson = write_fake_lesson(
        tmp_path / "94_loop.ipynb", "    while True:\n        pass", "    return 3 * x"
    )
    results = run_notebooks({"94_loop": lesson}, cell_timeout=2, expected={})
    assert [(r.exercise, r.status) for r in results] == [("99.1", "failed"), ("99.2", "passed")]
    assert "did not finish in 2 s" in results[0].message


def test_a_deleted_check_cell_shows_as_missing(tmp_path):
    lesson = write_fake_lesson(tmp_path / "95_deleted.ipynb", "    return 2 * x", checks=("99.1",))
    results = run_notebooks({"95_deleted": lesson}, expected={"95_deleted": ["99.1", "99.2"]})
    assert [(r.exercise, r.status) for r in results] == [("99.1", "passed"), ("99.2", "missing")]


def test_exercise_ids_come_from_cells_that_are_one_check_call():
    notebook = new_notebook(
        cells=[
            new_markdown_cell('check("1.1", f)'),
            new_code_cell('check( "3.2", f)'),
            new_code_cell('# check("2.1", f)'),
            new_code_cell('check("3.1", g)\nprint("done")'),
            new_code_cell('check("3.3", h)'),
        ]
    )
    assert exercise_ids(notebook) == ["3.2", "3.3"]


def test_the_table_keeps_the_first_two_lines_of_a_message():
    table = format_table([Result("03_x", "3.1", "failed", "rule broken\n  Hint: look\nthird line")])
    assert "rule broken" in table and "Hint: look" in table and "third line" not in table
    assert table.endswith("1 failed.")


def students_copy(home: Path) -> Path:
    """A release pulled into a hub home: ~/workbook/lessons (the student's work) and the pristine
    copies."""
    workbook = home / "workbook"
    write_fake_lesson(
        workbook / "lessons" / "91_solved.ipynb", "    return 2 * x", "    return 3 * x"
    )
    write_fake_lesson(
        workbook / "lessons" / "92_deleted.ipynb", "    return 2 * x", checks=("99.1",)
    )
    for name in ("91_solved", "92_deleted"):
        write_fake_lesson(workbook / PRISTINE / f"{name}.ipynb")
    (workbook / "harness").mkdir()  # the release's package folder: a place a terminal may be in
    return workbook


def test_the_workbook_is_found_from_where_the_command_runs(tmp_path):
    workbook = students_copy(tmp_path / "home" / "ada")
    lessons = workbook / "lessons"
    # the last: a hub home, the copy one level down
    for start in (
        workbook,
        lessons,
        workbook / "harness",
        workbook / PRISTINE,
        lessons / "91_solved.ipynb",
        tmp_path / "home" / "ada",
    ):
        found = find_workbook(start)
        assert (found.root, found.lessons) == (workbook, lessons), f"from {start}"
    assert sorted(find_workbook(lessons).pristine()) == ["91_solved.ipynb", "92_deleted.ipynb"]
    # solutions/ are not lessons
    assert find_workbook(ROOT / "solutions").lessons == ROOT / "lessons"


def test_no_workbook_or_several_below_is_a_clear_error(tmp_path):
    with pytest.raises(LessonsNotFound, match=r"No lessons found in .*--lessons PATH"):
        find_workbook(tmp_path)
    for name in ("one", "two"):
        write_fake_lesson(tmp_path / name / "lessons" / "91_solved.ipynb")
    with pytest.raises(LessonsNotFound, match=r"Several folders below hold lessons \(one, two\)"):
        find_workbook(tmp_path)


def test_the_console_script_checks_the_students_copy_from_a_hub_home(tmp_path):
    """The issue's report: run from the student's home, `check` must see their work, not the
    install's."""
    home = tmp_path / "home" / "ada"
    workbook = students_copy(home)
    script = Path(sys.executable).with_name("workbook")  # what pip put on the kernel's PATH
    done = subprocess.run(
        [str(script), "check"], cwd=home, capture_output=True, text=True, timeout=300
    )
    rows = [line.split()[:3] for line in done.stdout.splitlines() if line.startswith("9")]
    assert rows == [
        ["91_solved", "99.1", "passed"],
        ["91_solved", "99.2", "passed"],
        ["92_deleted", "99.1", "passed"],
        ["92_deleted", "99.2", "missing"],
    ], done.stdout + done.stderr
    assert "3 passed, 1 missing." in done.stdout, done.stdout + done.stderr
    assert not list((workbook / "lessons").glob("*.backup-*"))
    one = subprocess.run(
        [str(script), "check", "91"],
        cwd=workbook / "lessons",
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert one.returncode == 0 and "2 passed." in one.stdout, one.stdout + one.stderr

"""`python -m harness grade`: a cohort graded on copies, broken submissions recorded, not fatal."""

import csv
import subprocess
import sys
from pathlib import Path

import pytest
from test_workbook_check import digest, write_fake_lesson

from harness.workbook import ROOT, gradebook
from harness.workbook.grade import progress_line
from harness.workbook.runner import Result

SOLVED = {"double": "    return 2 * x", "triple": "    return 3 * x"}


def all_files(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


@pytest.fixture(scope="module")
def cohort(tmp_path_factory):
    """Three students against two reference lessons: one good, one broken, one half-done."""
    root = tmp_path_factory.mktemp("cohort")
    write_fake_lesson(root / "reference" / "91_one.ipynb")
    write_fake_lesson(root / "reference" / "92_two.ipynb", checks=("99.1",))
    subs = root / "submissions"
    write_fake_lesson(subs / "ada" / "91_one.ipynb", **SOLVED)
    # nested is fine
    write_fake_lesson(subs / "ada" / "lessons" / "92_two.ipynb", **SOLVED, checks=("99.1",))
    write_fake_lesson(subs / "bob" / "91_one.ipynb")
    # a truncated upload
    (subs / "bob" / "92_two.ipynb").write_text('{"cells": [', encoding="utf-8")
    write_fake_lesson(
        subs / "cal" / "91_one.ipynb", "    while True:\n        pass", "    return x"
    )
    before = all_files(subs)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "harness",
            "grade",
            str(subs),
            "--lessons",
            str(root / "reference"),
            "--out",
            str(root / "out"),
            "--jobs",
            "2",
            "--cell-timeout",
            "3",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    with (root / "out" / "gradebook.csv").open(encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    return root, before, done, rows


def status(rows, student, lesson, exercise):
    [row] = [
        r for r in rows if (r["student"], r["lesson"], r["exercise"]) == (student, lesson, exercise)
    ]
    return row["status"], row["message"]


def test_every_student_and_exercise_gets_a_row(cohort):
    _, _, _, rows = cohort
    assert {(r["student"], r["lesson"], r["exercise"]) for r in rows} == {
        (s, lesson, e)
        for s in ("ada", "bob", "cal")
        for lesson, e in [("91_one", "99.1"), ("91_one", "99.2"), ("92_two", "99.1")]
    }


def test_good_work_passes_and_stubs_are_not_attempted(cohort):
    rows = cohort[3]
    assert (
        status(rows, "ada", "91_one", "99.2")[0]
        == status(rows, "ada", "92_two", "99.1")[0]
        == "passed"
    )
    assert status(rows, "bob", "91_one", "99.1")[0] == "not attempted"
    assert status(rows, "cal", "91_one", "99.2") == (
        "failed",
        "Exercise 99.2: triple(2) should be 6.\n  Hint: Three times the number.",
    )


def test_broken_submissions_are_recorded_with_the_reason(cohort):
    rows = cohort[3]
    assert status(rows, "bob", "92_two", "99.1")[0] == "error"
    assert "not a valid notebook" in status(rows, "bob", "92_two", "99.1")[1]
    assert status(rows, "cal", "91_one", "99.1") == (
        "failed",
        "Exercise 99.1: did not finish in 3 s (an endless loop?)",
    )
    assert status(rows, "cal", "92_two", "99.1") == ("missing", "no 92_two.ipynb in the submission")


def test_submissions_are_graded_on_copies_never_in_place(cohort):
    root, before, _, _ = cohort
    assert all_files(root / "submissions") == before


def test_the_html_gradebook_has_the_cohort_views_and_works_offline(cohort):
    root, _, done, _ = cohort
    page = (root / "out" / "gradebook.html").read_text(encoding="utf-8")
    assert "<script" not in page
    assert (
        "Which rule the room missed" in page
        and "triple(2) should be 6." in page
        and "Needs a look" in page
    )
    projector = (root / "out" / "projector.html").read_text(encoding="utf-8")
    assert not any(name in projector.split("</style>")[1] for name in ("ada", "bob", "cal"))
    assert "3 of 3 exercises passed" in (root / "out" / "feedback" / "ada.html").read_text(
        encoding="utf-8"
    )
    assert "3 students, 9 graded exercises: 33% passed" in done.stdout


def test_the_lms_csv_has_one_row_per_student_and_a_total(cohort):
    with (cohort[0] / "out" / "lms.csv").open(encoding="utf-8") as file:
        table = list(csv.reader(file))
    assert table[0] == ["student", "99.1", "99.2", "total", "out_of"]
    assert table[1] == ["ada", "1", "1", "2", "2"] and table[2] == ["bob", "0", "0", "0", "2"]


def test_progress_is_drawn_on_stderr(cohort):
    assert "grading [" + "#" * 30 + "] 3/3 students" in cohort[2].stderr
    assert progress_line(1, 4) == "grading [" + "#" * 7 + "." * 23 + "] 1/4 students"


def test_rule_misses_count_students_per_broken_rule():
    cohort = {
        "ada": {
            "results": [
                Result("91", "99.1", "failed", "m", "rule A"),
                Result("91", "99.2", "passed"),
            ],
            "skipped": [],
        },
        "bob": {
            "results": [
                Result("91", "99.1", "failed", "m", "rule A"),
                Result("91", "99.2", "failed", "m", "rule B"),
            ],
            "skipped": [],
        },
    }
    assert gradebook.rule_misses(cohort) == [("99.1", "rule A", 2, 2), ("99.2", "rule B", 1, 2)]


def test_csv_cells_never_start_a_formula():
    for value in ('=HYPERLINK("x")', "+1", "-2", "@SUM(A1)", "\tx", "\rx"):
        assert gradebook.safe_cell(value) == "'" + value
    assert gradebook.safe_cell("fine") == "fine"


def test_a_folder_without_student_folders_is_refused(tmp_path):
    write_fake_lesson(tmp_path / "91_one.ipynb")  # notebooks straight in the folder: no students
    done = subprocess.run(
        [sys.executable, "-m", "harness", "grade", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "a folder of their own" in done.stderr
    assert digest(tmp_path) and not (tmp_path / "gradebook.csv").exists()

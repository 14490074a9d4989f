"""Every trick of tests/fixtures/grading/tricks.py, graded by `python -m harness grade` as the
instructor would."""

import csv
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from harness.workbook import LESSONS, ROOT, SOLUTIONS

sys.path.insert(0, str(Path(__file__).parent / "fixtures" / "grading"))
from tricks import EXPECTED, LESSON, write_all  # noqa: E402


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    root = tmp_path_factory.mktemp("tricks")
    write_all(
        root / "submissions",
        nbformat.read(LESSONS / f"{LESSON}.ipynb", 4),
        nbformat.read(SOLUTIONS / f"{LESSON}.ipynb", 4),
    )
    (root / "submissions" / "renamed_lesson" / "lessons").mkdir(parents=True)
    (root / "submissions" / "renamed_lesson" / "lessons" / f"{LESSON}-Copy1.ipynb").write_bytes(
        (LESSONS / f"{LESSON}.ipynb").read_bytes()
    )
    (root / "submissions" / "solutions_beside_lessons" / "solutions").mkdir(parents=True)
    (
        root / "submissions" / "solutions_beside_lessons" / "solutions" / f"{LESSON}.ipynb"
    ).write_bytes((SOLUTIONS / f"{LESSON}.ipynb").read_bytes())
    (root / "submissions" / "solutions_beside_lessons" / "lessons").mkdir()
    (root / "submissions" / "solutions_beside_lessons" / "lessons" / f"{LESSON}.ipynb").write_bytes(
        (LESSONS / f"{LESSON}.ipynb").read_bytes()
    )
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "harness",
            "grade",
            str(root / "submissions"),
            "--lesson",
            "03",
            "--out",
            str(root / "out"),
            "--jobs",
            "2",
            "--cell-timeout",
            "30",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=3000,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    with (root / "out" / "gradebook.csv").open(encoding="utf-8") as file:
        return root, {(r["student"], r["exercise"]): r for r in csv.DictReader(file)}


@pytest.mark.parametrize("trick", list(EXPECTED))
def test_each_trick_is_graded_as_it_deserves(graded, trick):
    row = graded[1][(trick, "3.1")]
    assert row["status"] == EXPECTED[trick], row["message"]


def test_a_renamed_lesson_is_missing_and_says_which_file_it_found(graded):
    row = graded[1][("renamed_lesson", "3.1")]
    assert row["status"] == "missing" and f"{LESSON}-Copy1.ipynb" in row["message"]


def test_solutions_are_never_graded_and_the_skip_is_reported(graded):
    root, rows = graded
    assert rows[("solutions_beside_lessons", "3.1")]["status"] == "not attempted"
    assert "the reference answers are never graded" in (root / "out" / "gradebook.html").read_text(
        encoding="utf-8"
    )


def test_fifty_megabytes_of_output_stay_out_of_the_gradebook(graded):
    root, _ = graded
    assert all(p.stat().st_size < 5_000_000 for p in (root / "out").rglob("*") if p.is_file())


def test_restored_cells_are_listed_for_a_look(graded):
    rows = graded[1]
    assert "was edited" in rows[("check_commented_out", "notebook")]["message"]


def test_the_evidence_of_a_reached_reference_is_the_line_itself(graded):
    message = graded[1][("reference_through_sys_modules", "3.1")]["message"]
    assert "sys.modules['harness.context']" in message and "cell " in message


def test_code_that_is_the_references_is_passed_and_flagged_for_review(graded):
    root, rows = graded
    assert rows[("reference_copied_with_its_imports", "3.1")]["status"] == "passed"
    assert "matches the reference" in (root / "out" / "gradebook.html").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "trick",
    ["exit_after_correct_work", "os_exit_after_correct_work", "kernel_killed_after_correct_work"],
)
def test_a_cell_that_ends_the_kernel_costs_the_exercises_nothing_and_is_reported(graded, trick):
    # Every exercise is graded from its source, wherever the kernel stopped; exit() stops the run at
    # its own cell (its reply asks for the end) rather than whenever the kernel gets round to dying.
    rows = graded[1]
    assert [rows[(trick, e)]["status"] for e in ("3.1", "3.2")] == ["passed", "passed"]
    stop = rows[(trick, "notebook")]["message"]
    assert "the kernel stopped at cell" in stop and (
        trick != "exit_after_correct_work" or "exit()" in stop
    )

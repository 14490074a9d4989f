"""The generated lessons, run as a student first opens them, and the solutions, run by the grader.

Every pristine lesson runs top to bottom with no cell raising (a stub's NotImplementedError aside),
each check cell's structured result says "not attempted"; each solution, graded against its
pristine lesson (check cells restored, guard cells added), passes every exercise."""

import pytest

from harness.checks import exercises
from harness.workbook import SOLUTIONS
from harness.workbook.check import lesson_notebooks
from harness.workbook.runner import pristine_lessons, run_notebooks

LESSON_FILES = lesson_notebooks()


@pytest.fixture(scope="module")
def pristine_results():
    return run_notebooks({p.stem: p for p in LESSON_FILES}, cell_timeout=120, offline=True)


@pytest.fixture(scope="module")
def solution_results():
    return run_notebooks(
        {p.stem: SOLUTIONS / p.name for p in LESSON_FILES},
        cell_timeout=120,
        offline=True,
        pristine=pristine_lessons(),
        isolated=True,
    )


def test_every_check_cell_reports_not_attempted_on_the_stub_the_lesson_ships(pristine_results):
    # A failure outside a check cell shows up here too, as an "error" row for exercise "-":
    # a student who skips an exercise must still be able to run the rest of the lesson.
    not_stubbed = [
        (r.lesson, r.exercise, r.status, r.message[:200])
        for r in pristine_results
        if r.status != "not attempted"
    ]
    assert not_stubbed == []


def test_every_solution_passes_when_graded(solution_results):
    assert [
        (r.lesson, r.exercise, r.status, r.message[:200])
        for r in solution_results
        if r.status != "passed"
    ] == []


def test_every_registered_exercise_is_checked_in_some_lesson(pristine_results):
    assert {r.exercise for r in pristine_results if r.exercise != "-"} == set(exercises())


@pytest.mark.parametrize("lesson", [p.stem for p in LESSON_FILES])
def test_each_lesson_checks_at_least_one_exercise(lesson, pristine_results):
    assert any(r.lesson == lesson for r in pristine_results if r.exercise != "-")

"""The generated lessons, run as a student first opens them: every check cell must fail on the stub
it ships, and say so as "not attempted"; nothing else in the lesson may fail."""
import pytest

from harness.checks import exercises
from harness.workbook.check import lesson_notebooks
from harness.workbook.runner import run_notebooks

LESSON_FILES = lesson_notebooks()


@pytest.fixture(scope="module")
def pristine_results():
    return run_notebooks({p.stem: p for p in LESSON_FILES}, cell_timeout=120, offline=True)


def test_every_check_cell_fails_on_the_stub_the_lesson_ships(pristine_results):
    # A failure outside a check cell shows up here too, as an "error" row for exercise "-":
    # a student who skips an exercise must still be able to run the rest of the lesson.
    not_stubbed = [(r.lesson, r.exercise, r.status, r.message[:200]) for r in pristine_results
                   if r.status != "not attempted"]
    assert not_stubbed == []


def test_every_registered_exercise_is_checked_in_some_lesson(pristine_results):
    assert {r.exercise for r in pristine_results if r.exercise != "-"} == set(exercises())


@pytest.mark.parametrize("lesson", [p.stem for p in LESSON_FILES])
def test_each_lesson_checks_at_least_one_exercise(lesson, pristine_results):
    assert any(r.lesson == lesson for r in pristine_results if r.exercise != "-")


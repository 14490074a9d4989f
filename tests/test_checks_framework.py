"""The check framework: one line on a pass; a named rule and a hint on a failure."""
import pytest

from harness import checks
from harness.checks import ExerciseFailed, check, exercises, reference


def test_exercise_failed_is_an_assertion_error():
    assert issubclass(ExerciseFailed, AssertionError)


def test_unknown_exercise_lists_the_known_ones():
    with pytest.raises(ValueError, match="Known exercises"):
        check("99.9", print)


def test_passing_something_that_is_not_a_function_says_so():
    some_id = next(iter(exercises()))
    with pytest.raises(ExerciseFailed, match="needs your function itself"):
        check(some_id, 42)


def test_a_stub_is_reported_as_not_attempted():
    def stub(*args, **kwargs):
        raise NotImplementedError("Exercise 0.0")

    with pytest.raises(ExerciseFailed, match=checks.NOT_ATTEMPTED):
        checks.call("0.0", stub, 1)


def test_a_crash_in_the_students_code_names_the_exception_and_the_call():
    def broken(text):
        return text.nope

    with pytest.raises(ExerciseFailed, match=r"AttributeError.*broken\(.abc.\)"):
        checks.call("0.0", broken, "abc")


@pytest.mark.parametrize("exercise_id", list(exercises()))
def test_every_check_passes_on_its_reference(exercise_id, capsys):
    check(exercise_id, reference(exercise_id))
    assert capsys.readouterr().out.startswith(f"✔ Exercise {exercise_id} passed")


@pytest.mark.parametrize("exercise_id", list(exercises()))
def test_every_check_fails_on_a_stub(exercise_id):
    def stub(*args, **kwargs):
        raise NotImplementedError(f"Exercise {exercise_id}")

    with pytest.raises(ExerciseFailed, match=checks.NOT_ATTEMPTED):
        check(exercise_id, stub)


def test_the_pinned_exercises_are_all_registered():
    pinned = {"3.1", "3.2", "4.1", "4.2", "5.1", "5.2", "6.1", "6.2", "7.1", "7.2", "8.1"}
    assert pinned <= set(exercises())

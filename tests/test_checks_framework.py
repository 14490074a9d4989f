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


def test_each_result_lists_the_rules_its_check_tried():
    passed, failed = (
        checks.run_check("4.2", reference("4.2")),
        checks.run_check("4.2", lambda output: None),
    )
    assert (
        passed.rules
        and all(r["passed"] for r in passed.rules)
        and passed.to_dict()["rules"] == passed.rules
    )
    assert failed.rules[-1] == {"name": failed.rules[-1]["name"], "passed": False}
    assert len({r["name"] for r in passed.rules}) == len(passed.rules)  # one entry per rule

    def stub(output):
        raise NotImplementedError("Exercise 4.2")

    assert checks.run_check("4.2", stub).rules == []


def _loops(text, max_chars=4000, head_ratio=0.4):
    while True:
        pass


def _interrupted(text, max_chars=4000, head_ratio=0.4):
    raise KeyboardInterrupt  # what Kernel > Interrupt raises inside the running check


@pytest.mark.parametrize(
    "answer, words", [(_loops, "did not finish within 1 s"), (_interrupted, "interrupted")]
)
def test_a_check_that_loops_or_is_interrupted_ends_with_its_one_line(answer, words):
    result = checks.run_check("4.1", answer, time_limit=1)
    assert result.status == checks.ERROR and words in result.rule and "\n" not in result.line()
    assert result.rules[-1] == {"name": "finishes in time", "passed": False}


def test_mine_uses_the_students_function_only_once_it_passes(capsys):
    right = reference("4.2")

    def wrong(output):
        return None

    assert checks.mine("4.2", right) is right
    assert (
        capsys.readouterr().out.strip()
        == "Exercise 4.2 passes: using your extract_verdict from here on."
    )
    assert checks.mine("4.2", wrong) is reference("4.2")
    assert (
        capsys.readouterr().out.strip()
        == "Your wrong does not pass 4.2 yet: the cells below use the harness's extract_verdict."
    )


def test_the_time_limit_stops_a_loop_inside_a_kernel(tmp_path):
    """A kernel runs cells in its main thread, where the limit's alarm can fire."""
    import nbformat
    from nbclient import NotebookClient

    cell = (
        "from harness.checks import run_check\n"
        "def loops(text, max_chars=4000, head_ratio=0.4):\n    while True:\n        pass\n"
        "print(run_check('4.1', loops, time_limit=1).status)"
    )
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(cell)])
    NotebookClient(
        notebook, timeout=60, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    ).execute()
    assert notebook.cells[0].outputs[0]["text"].strip() == "error"


def test_what_an_answer_prints_while_it_is_checked_is_not_shown(capsys):
    def chatty(output):
        print("debugging", output[:10])
        return reference("4.2")(output)

    check("4.2", chatty)
    assert capsys.readouterr().out.splitlines() == [checks.run_check("4.2", chatty).line()]


def test_a_check_imports_only_its_own_lessons_checks():
    """A lesson's first check loaded every lesson's checks, lesson 11's Interactions client among
    them (0.6 s of CPU in every lesson); exercise N.x loads harness/checks/lessonNN.py alone."""
    import subprocess
    import sys

    probe = (
        "import sys\nfrom harness.checks import reference, run_check\n"
        "run_check('0.1', reference('0.1'))\n"
        "print(sorted(m for m in sys.modules if m.startswith('harness.checks.lesson')))"
    )
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "['harness.checks.lesson00']"


def test_each_exercise_lives_in_its_lessons_check_module():
    """checks.registered finds exercise N.x by importing harness/checks/lessonNN.py alone."""
    for exercise_id, registered in exercises().items():
        module = f"harness.checks.lesson{int(exercise_id.partition('.')[0]):02d}"
        assert registered.run.__module__ == module, (
            f"exercise {exercise_id} is registered in {registered.run.__module__}: move it to "
            f"{module}, where checks.registered looks for it"
        )

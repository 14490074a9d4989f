"""INSTRUCTORS.md's "Adding an exercise", enforced: every exercise of the check registry has what
the recipe lists, so a new one cannot be half added (as 5.3 once was, missing from the timing
table). Each test names the step of the recipe that was skipped."""

import re
from pathlib import Path

import nbformat
import pytest

from harness.checks import docs, exercises
from harness.quizzes import Question

ROOT = Path(__file__).resolve().parent.parent
EXERCISES = list(exercises())
IDS = re.compile(r"\(([\d.]+(?:, [\d.]+)*)\)[;.]?$")  # "(5.3);" or "(6.1, 6.2)." at a line's end


def _lesson(exercise_id: str) -> str:
    return f"{int(exercise_id.partition('.')[0]):02d}"


def _solution(exercise_id: str) -> Path:
    return next((ROOT / "solutions").glob(f"{_lesson(exercise_id)}_*.ipynb"))


def _markdown(exercise_id: str) -> list[str]:
    notebook = nbformat.read(_solution(exercise_id), as_version=4)
    return [cell.source for cell in notebook.cells if cell.cell_type == "markdown"]


def _block(name: str) -> str:
    text = docs.INSTRUCTORS.read_text(encoding="utf-8")
    return text[text.index(f"<!-- generated: {name} -->") :].split("<!-- end generated -->")[0]


def test_every_fixture_module_is_read_by_the_docs():
    modules = {p.stem for p in (ROOT / "tests").glob("test_wrong_answers_*.py")}
    missing = sorted(modules - set(docs.FIXTURE_MODULES) - {"test_wrong_answers_run_all"})
    assert not missing, f"step 3: add {missing} to FIXTURE_MODULES in harness/checks/docs.py"


def test_every_exercise_has_wrong_answer_fixtures():
    fixed = {exercise for exercise, _, _ in docs._fixtures()}
    missing = [e for e in EXERCISES if e not in fixed]
    assert not missing, f"step 3: no wrong answer in tests/test_wrong_answers_*.py for {missing}"


@pytest.mark.parametrize("block", ["exercises", "mistakes", "lesson-times"])
def test_every_exercise_has_its_row_in_each_generated_table(block):
    table = _block(block)
    found = set(re.findall(r"(?<![\d.])(\d+\.\d+)(?![\d.])", table))
    missing = [e for e in EXERCISES if e not in found]
    assert not missing, f"step 5: run python -m harness.checks.docs ({block} lacks {missing})"


def test_every_lesson_with_exercises_has_its_times_filled_in():
    unfilled = [row for row in _block("lesson-times").splitlines() if docs.NOT_MEASURED in row]
    unfilled += [row for row in _block("lesson-times").splitlines() if docs.NOT_ESTIMATED in row]
    assert not unfilled, (
        f"step 5: measure and estimate in INSTRUCTORS.md's timing table: {unfilled}"
    )


def test_every_lesson_with_exercises_has_its_row_in_the_readme():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    missing = sorted({_lesson(e) for e in EXERCISES if f"\n| {_lesson(e)} | " not in readme})
    assert not missing, f"step 5: README's table of lessons has no row for {missing}"


@pytest.mark.parametrize("exercise_id", EXERCISES)
def test_a_quiz_question_asks_about_the_exercise(exercise_id):
    from importlib import import_module

    questions = import_module(f"harness.quizzes.lesson{_lesson(exercise_id)}").QUESTIONS
    assert all(isinstance(q, Question) for q in questions)
    assert any(q.exercise == exercise_id for q in questions), (
        f"step 4: give a question of harness/quizzes/lesson{_lesson(exercise_id)}.py "
        f'exercise="{exercise_id}" (the question on its idea)'
    )


@pytest.mark.parametrize("exercise_id", EXERCISES)
def test_an_i_can_line_names_the_exercise(exercise_id):
    ican = next(s for s in _markdown(exercise_id) if s.startswith("## I can"))
    named = {
        i for line in ican.splitlines() for found in IDS.findall(line) for i in found.split(", ")
    }
    assert exercise_id in named, (
        f'step 4: end a line of {_solution(exercise_id).name}\'s "I can" list with ({exercise_id})'
    )


@pytest.mark.parametrize("exercise_id", EXERCISES)
def test_the_exercise_text_states_its_own_number_of_generated_inputs(exercise_id):
    """Issue 26, point 7: "a few hundred generated inputs" was said of checks that compare 60."""
    text = " ".join(" ".join(_markdown(exercise_id)).split())
    assert "a few hundred generated" not in text
    section = text[text.find(f"Exercise {exercise_id} ") :]
    section = re.split(r"Exercise \d+\.\d+ |## I can", section[1:])[0]
    stated = [int(n.replace(",", "")) for n in re.findall(r"(\d[\d,]*) generated \w+", section)]
    count = docs.generated_inputs().get(exercise_id)
    assert all(n == count for n in stated), (
        f"step 2: {_solution(exercise_id).name} says its check compares {stated} generated inputs; "
        f"it compares {count} (harness.checks.docs.generated_inputs)"
    )

"""Quizzes: the key lives in harness/quizzes, options are shuffled the same way every time, and
every pick explains itself."""

import collections
import os
import subprocess
import sys

import nbformat
import pytest

from harness.quizzes import FEEDBACK_CLASS, RIGHT, WRONG, Question, known_lessons, questions, quiz
from harness.workbook import SOLUTIONS

TWO_PLUS_TWO = Question(
    "2 + 2?", right=("4", "Yes."), wrong=[("3", "Off by one."), ("5", "One too many.")]
)


def quiz_cells():
    for path in sorted(SOLUTIONS.glob("[0-9][0-9]_*.ipynb")):
        cells = [
            c
            for c in nbformat.read(path, as_version=4).cells
            if c.cell_type == "code" and "quiz(" in c.source
        ]
        yield path.name, cells


def test_every_lesson_has_a_quiz_of_at_least_two_questions():
    lessons = [name[:2] for name, _ in quiz_cells()]
    assert known_lessons() == lessons
    assert all(len(questions(lesson)) >= 2 for lesson in lessons)


@pytest.mark.parametrize(
    "name, cells", list(quiz_cells()), ids=lambda v: v if isinstance(v, str) else ""
)
def test_the_quiz_cell_shows_no_key(name, cells):
    assert len(cells) == 1, f"{name}: expected one quiz cell"
    source = cells[0].source
    assert f'quiz("{name[:2]}")' in source, f'{name}: the quiz cell should be quiz("{name[:2]}")'
    for leak in ("answer", "why", "right=", "wrong=", "Question("):
        assert leak not in source, f"{name}: the quiz cell shows {leak!r}"


def test_the_right_answer_moves_around():
    places = collections.Counter(
        next(i for i, (_, _, right) in enumerate(options) if right)
        for lesson in known_lessons()
        for _, options in questions(lesson)
    )
    assert len(places) == 3 and max(places.values()) <= 0.5 * sum(places.values()), places


def test_the_order_is_the_same_under_any_hash_seed():
    script = (
        "from harness.quizzes import questions; print([[t for t, _, _ in o] for _, o in"
        " questions('05')])"
    )
    orders = {
        subprocess.run(
            [sys.executable, "-c", script],
            capture_output=True,
            text=True,
            check=True,
            env=dict(os.environ, PYTHONHASHSEED=str(seed)),
        ).stdout
        for seed in (0, 1, 7)
    }
    assert len(orders) == 1


def test_a_wrong_pick_says_why_it_is_wrong_and_a_right_one_why_it_is_right():
    options = TWO_PLUS_TWO.shuffled("x.1")
    assert sorted(t for t, _, _ in options) == ["3", "4", "5"]
    by_text = {text: (text, why, right) for text, why, right in options}
    from harness.quizzes import feedback

    assert (
        feedback(by_text["3"]) == f"{WRONG} Off by one."
        and feedback(by_text["4"]) == f"{RIGHT} Yes."
    )


def test_picking_an_answer_fills_the_feedback():
    panel = quiz("03")
    (_, options), row = questions("03")[0], panel.children[0]
    _, choices, shown = row.children
    wrong = next(i for i, (_, _, right) in enumerate(options) if not right)
    choices.value = wrong
    assert (
        FEEDBACK_CLASS in shown.value
        and WRONG in shown.value
        and options[wrong][1][:20] in shown.value
    )
    choices.value = next(i for i, (_, _, right) in enumerate(options) if right)
    assert RIGHT in shown.value


@pytest.mark.parametrize(
    "bad, message",
    [
        (dict(right=("4", "Yes."), wrong=[]), "at least one wrong"),
        (dict(right=("4", ""), wrong=[("3", "No.")]), "non-empty"),
        (dict(right=("4", "Yes."), wrong=[("4", "Again.")]), "same text"),
    ],
)
def test_a_malformed_question_is_refused(bad, message):
    with pytest.raises(ValueError, match=message):
        Question("2 + 2?", **bad)


@pytest.mark.parametrize("lesson", ["42", "three"])
def test_an_unknown_lesson_is_named(lesson):
    with pytest.raises(ValueError, match="quiz"):
        quiz(lesson)

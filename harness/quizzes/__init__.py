"""Short quizzes for the end of a lesson: pick an answer, read why it is right or wrong.

A lesson's cell is only `quiz("03")`: the questions, the right answers and the explanations live
beside this file, one data module per lesson (`lesson03.py` defines lesson 03's `QUESTIONS`), so the
notebook shows nothing of the key. Each question's options are shuffled with a seed made of the
lesson and the question number: the same order on every run and every machine, and the right answer
not always in the same place.

>>> q = Question("Which block goes first?",
...              right=("the system instruction", "Stable text first keeps a cacheable prefix."),
...              wrong=[("the question", "It goes last: the model reads it best there.")])
>>> [text for text, _, _ in q.shuffled("02.1")] == [text for text, _, _ in q.shuffled("02.1")]
True
>>> feedback(("the question", "It goes last: the model reads it best there.", False))
'Not quite. It goes last: the model reads it best there.'
"""

import html
import importlib
import pkgutil
import random
from dataclasses import dataclass

import ipywidgets as widgets

from harness.plumbing.arguments import require_text, shown

RIGHT, WRONG = "Right.", "Not quite."
FEEDBACK_CLASS = "workbook-quiz-feedback"  # the browser test finds the explanation by it


@dataclass(frozen=True)
class Question:
    """One question: the right option and the wrong ones, each as (text, why it is right or wrong).
    `exercise`: the id of the exercise whose idea it asks about, if any (never shown; every exercise
    has one, tests/test_exercise_recipe.py)."""

    prompt: str
    right: tuple[str, str]
    wrong: tuple[tuple[str, str], ...]
    exercise: str = ""

    def __post_init__(self):
        require_text("prompt", self.prompt, empty=False)
        for name, options in (("right", [self.right]), ("wrong", self.wrong)):
            if (
                isinstance(options, (str, bytes))
                or not isinstance(options, (list, tuple))
                or not options
                or any(
                    not isinstance(o, (list, tuple))
                    or len(o) != 2
                    or not all(isinstance(t, str) and t.strip() for t in o)
                    for o in options
                )
            ):
                raise ValueError(
                    f"Question {self.prompt[:40]!r}: {name} must be "
                    + (
                        "a (text, explanation) pair"
                        if name == "right"
                        else "a list of at least one wrong (text, explanation) pair"
                    )
                    + f" of non-empty strings, got {getattr(self, name)!r:.80}."
                )
        object.__setattr__(self, "right", tuple(self.right))
        object.__setattr__(self, "wrong", tuple(tuple(option) for option in self.wrong))
        options = (self.right,) + self.wrong
        if len({text for text, _ in options}) != len(options):
            raise ValueError(f"Question {self.prompt[:40]!r}: two options have the same text.")

    def shuffled(self, seed: str) -> list[tuple[str, str, bool]]:
        """(text, why, is_right) for every option, in an order fixed by `seed`."""
        options = [(*self.right, True)] + [(*option, False) for option in self.wrong]
        # a str seed gives the same order under any PYTHONHASHSEED
        random.Random(seed).shuffle(options)
        return options


def feedback(option: tuple[str, str, bool]) -> str:
    """What a student reads after picking `option`."""
    if not (
        isinstance(option, tuple)
        and len(option) == 3
        and isinstance(option[1], str)
        and isinstance(option[2], bool)
    ):
        raise TypeError(
            "option must be one (text, why, is_right) triple of Question.shuffled, got"
            f" {shown(option)}."
        )
    _, why, is_right = option
    return f"{RIGHT if is_right else WRONG} {why}"


def _lesson_name(lesson) -> str:
    text = str(lesson).strip()
    if not text.isdigit():
        raise ValueError(
            f'quiz() takes the lesson number as `lesson`, such as quiz("03"), got {lesson!r}.'
        )
    return f"lesson{int(text):02d}"


def known_lessons() -> list[str]:
    """The lesson numbers that have a quiz, e.g. ['00', '01', ...]."""
    return sorted(
        m.name.removeprefix("lesson")
        for m in pkgutil.iter_modules(__path__)
        if m.name.startswith("lesson")
    )


def questions(lesson: str | int) -> list[tuple[str, list[tuple[str, str, bool]]]]:
    """(prompt, shuffled options) for each question of a lesson, in the order the quiz shows
    them."""
    name = _lesson_name(lesson)
    if name.removeprefix("lesson") not in known_lessons():
        raise ValueError(
            f"No quiz for lesson {lesson!r}. Lessons with a quiz: {', '.join(known_lessons())}."
        )
    module = importlib.import_module(f"harness.quizzes.{name}")
    number = name.removeprefix("lesson")
    return [(q.prompt, q.shuffled(f"{number}.{i}")) for i, q in enumerate(module.QUESTIONS, 1)]


def quiz(lesson: str | int) -> widgets.VBox:
    """A panel with one radio group per question of `lesson`; each pick shows why it is right or
    wrong."""
    rows = []
    for number, (prompt, options) in enumerate(questions(lesson), 1):
        choices = widgets.RadioButtons(
            options=[(text, i) for i, (text, _, _) in enumerate(options)],
            value=None,
            layout=widgets.Layout(width="auto"),
        )
        shown = widgets.HTML()

        def show(change, options=options, shown=shown):
            if change["new"] is not None:
                shown.value = f'<p class="{FEEDBACK_CLASS}">{html.escape(feedback(options[change["new"]]))}</p>'

        choices.observe(show, names="value")
        rows.append(
            widgets.VBox([widgets.HTML(f"<b>{number}. {html.escape(prompt)}</b>"), choices, shown])
        )
    return widgets.VBox(rows)

"""Short quizzes for the end of a lesson: pick an answer, read why it is right or wrong.

>>> q = Question("Which block goes first?", ["the question", "the system instruction"], answer=1,
...              why=["It goes last: the model reads it best there.", "Stable text first keeps a cacheable prefix."])
>>> q.explain(0).startswith("Not quite")
True
"""
from dataclasses import dataclass

import ipywidgets as widgets
from harness.arguments import require_instance, require_int, require_list_of_text, require_text


@dataclass
class Question:
    prompt: str
    options: list[str]
    answer: int          # index of the right option
    why: list[str]       # one explanation per option, shown once that option is picked

    def __post_init__(self):
        require_text("prompt", self.prompt, empty=False)
        require_list_of_text("options", self.options)
        require_int("answer", self.answer, 0, max(len(self.options) - 1, 0))
        require_list_of_text("why", self.why)
        if len(self.why) != len(self.options) or not 0 <= self.answer < len(self.options):
            raise ValueError(f"Question {self.prompt[:40]!r}: why must give one explanation per option "
                             f"(options has {len(self.options)}), got {len(self.why)}.")

    def explain(self, choice: int) -> str:
        verdict = "Right." if choice == self.answer else "Not quite."
        return f"{verdict} {self.why[choice]}"


def quiz(*questions: Question) -> widgets.VBox:
    """A panel with one radio group per question; each answer shows its explanation."""
    for index, question in enumerate(questions):
        require_instance(f"questions[{index}]", question, Question, "a quiz.Question")
    rows = []
    for number, question in enumerate(questions, 1):
        choices = widgets.RadioButtons(options=[(text, i) for i, text in enumerate(question.options)],
                                       value=None, layout=widgets.Layout(width="auto"))
        feedback = widgets.HTML()

        def show(change, question=question, feedback=feedback):
            if change["new"] is not None:
                feedback.value = f"<p>{question.explain(change['new'])}</p>"

        choices.observe(show, names="value")
        rows.append(widgets.VBox([widgets.HTML(f"<b>{number}. {question.prompt}</b>"), choices, feedback]))
    return widgets.VBox(rows)

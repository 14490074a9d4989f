"""Lesson 03's quiz: what build_context drops, and in which order."""

from harness.quizzes import Question

QUESTIONS = [
    Question(
        "The budget is exceeded. What does build_context remove first?",
        right=("The oldest turn", "The summary already covers it, so it is the cheapest loss."),
        wrong=[
            ("The last fact", "Facts go last: a recalled fact is worth more than an old turn."),
            (
                "The summary",
                "The summary is never cut: it is what stands in for the dropped turns.",
            ),
        ],
        exercise="3.1",
    ),
    Question(
        "With docs, which order of dropping is right?",
        right=(
            "turns, then the least relevant docs, then the last facts",
            "Least valuable first: old turns, then the docs that matter least, then facts.",
        ),
        wrong=[
            (
                "docs, then turns, then facts",
                "Documents were retrieved for this very question: an old turn is worth less.",
            ),
            (
                "turns, then facts, then docs",
                "Facts are about the user and stay for the whole session: they outrank a passage.",
            ),
        ],
        exercise="3.2",
    ),
    Question(
        "The system text, summary and question alone exceed the budget. What should build_context"
        " return?",
        right=(
            "Them anyway, with total over the budget",
            "The caller sees total > budget and can shorten the summary (lesson 05).",
        ),
        wrong=[
            ("An error", "Refusing leaves the user with no answer at all."),
            (
                "The system text and question, without the summary",
                "Without the summary the model loses the whole past of the conversation.",
            ),
        ],
    ),
]

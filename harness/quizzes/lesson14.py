"""Lesson 12's quiz: choosing the lever for the constraint you have."""

from harness.quizzes import Question

QUESTIONS = [
    Question(
        "The window is big enough, the bill is fine, quality is fine. Should you add compaction?",
        right=(
            "No: name a constraint first; none is binding",
            "Each constraint (window, bill, measured quality) calls for its own fix.",
        ),
        wrong=[
            (
                "Yes, as a default",
                "Compaction by default rewrites the prefix and loses facts for nothing.",
            )
        ],
    ),
    Question(
        "You must fit a small window. Which lever do you pull first?",
        right=(
            "Cap tool outputs",
            (
                "It needs no model and shrinks the context without rewriting it, so the cached"
                " prefix stays."
            ),
        ),
        wrong=[
            ("Summarise every turn", "Every summary rewrites the prefix and loses old facts."),
            (
                "Drop the system instruction",
                "The system instruction anchors the behaviour: never cut it.",
            ),
        ],
        exercise="14.1",
    ),
]

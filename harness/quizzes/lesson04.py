"""Lesson 04's quiz: truncating and masking tool outputs."""

from harness.quizzes import Question

QUESTIONS = [
    Question(
        "Your agent re-runs pytest four times after each change. The log is 18,000 characters, "
        "the cap 4,000. Most likely cause?",
        right=(
            "The cap keeps the start of the log, and the verdict is at the end",
            "Without the last line in view the agent has no verdict, so it asks for one again.",
        ),
        wrong=[
            (
                "The tests are flaky",
                (
                    "Flaky tests change verdicts; they do not make the agent re-run with the same"
                    " code."
                ),
            ),
            (
                "The context budget is too small",
                "The budget governs compaction (lesson 05); a 4,000-char output fits it easily.",
            ),
        ],
        exercise="4.2",
    ),
    Question(
        "Why 40% head and 60% tail rather than the reverse?",
        right=(
            "Tools write their conclusion last",
            (
                "pytest, compilers and linters end with the verdict, so the tail gets the larger"
                " share."
            ),
        ),
        wrong=[
            (
                "The head holds the verdict",
                (
                    "The head holds the session header and the first failures; the summary line"
                    " comes last."
                ),
            ),
            ("It is arbitrary", "It follows from where tools put their conclusion."),
        ],
        exercise="4.1",
    ),
    Question(
        "Which output should masking leave alone?",
        right=(
            "The latest error, while the agent is still fixing it",
            (
                "Hiding an error being debugged breaks the debugging loop, as « Techniques"
                " d'Optimisation de Contexte » warns."
            ),
        ),
        wrong=[
            (
                "A README read ten turns ago",
                "Old and already acted upon: a good candidate, with its text kept in the store.",
            ),
            ("A listing already used", "Its job is done; a reference is enough."),
        ],
        exercise="4.3",
    ),
]

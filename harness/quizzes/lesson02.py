"""Lesson 02's quiz: ordering the context for the prefix cache."""

from harness.quizzes import Question

QUESTIONS = [
    Question(
        "Why do the system text and the facts go first?",
        right=(
            "They are the same on every call, so they form a prefix the cache can reuse.",
            (
                "And being stable, they are never rewritten, so the prefix holds for the whole"
                " session."
            ),
        ),
        wrong=[
            (
                "The model reads the top of the request more carefully.",
                (
                    "Models tend to use the start and the end of a long context best, but the gain"
                    " measured here is the cache."
                ),
            ),
            (
                "The API requires it.",
                "The API takes blocks in any order; the order is your choice.",
            ),
        ],
    ),
    Question(
        "You add 'Current time: 09:14' as the first line of the system instruction. What happens to"
        " caching?",
        right=(
            "Every call's prefix differs from the first line on: nothing is cached.",
            "A prefix cache stops at the first difference. Put volatile text at the end instead.",
        ),
        wrong=[
            (
                "Nothing: one line is a handful of tokens.",
                (
                    "The cache needs an identical prefix; one differing line at the top ends it at"
                    " once."
                ),
            ),
            (
                "Only that line is billed at the full rate.",
                "Everything after the first difference loses the cache, not just the line itself.",
            ),
        ],
        exercise="2.1",
    ),
    Question(
        "Where does the question go, and why?",
        right=(
            (
                "Last: it changes on every call, and the model answers best from what comes right"
                " before it."
            ),
            "Volatile blocks go last, after the material needed to answer them.",
        ),
        wrong=[
            (
                "First, so the model knows what to look for.",
                "A question on top would end the shared prefix at the first block.",
            ),
            (
                "In the system instruction.",
                (
                    "The system instruction holds stable, trusted context, not the request of the"
                    " moment."
                ),
            ),
        ],
    ),
]

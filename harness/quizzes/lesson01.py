"""Lesson 01's quiz: how a naive loop's prompts grow."""

from harness.quizzes import Question

QUESTIONS = [
    Question(
        "A naive loop's turns each add about 400 tokens. Roughly how big is the prompt of turn 20?",
        right=("8,000 tokens", "About 20 x 400: every earlier exchange is re-sent."),
        wrong=[
            (
                "400 tokens",
                "That is what the turn adds, not what it sends: the whole history goes with it.",
            ),
            (
                "160,000 tokens",
                "That is closer to the whole session's input (the sum of all 20 prompts).",
            ),
        ],
        exercise="1.1",
    ),
    Question(
        "A session of 10 turns sent 30,000 input tokens. About how many would 20 similar turns"
        " send?",
        right=(
            "120,000",
            "Twice the turns, each about twice as big on average: about four times the input.",
        ),
        wrong=[
            (
                "60,000",
                (
                    "Only the system instruction's share grows linearly; the history part grows"
                    " with n squared."
                ),
            ),
            (
                "900,000",
                (
                    "That is 30 times as much, more than even n cubed would give (2 cubed is 8): "
                    "twice the turns multiplies an n-squared total by about 4."
                ),
            ),
        ],
    ),
    Question(
        "In turn k of a naive loop, which reply is NOT in the prompt?",
        right=(
            "The reply of turn k",
            "It does not exist yet: the model is writing it from this prompt.",
        ),
        wrong=[
            ("The first reply", "It is re-sent on every later turn."),
            (
                "The reply of turn k-1",
                "It joined the history at the end of turn k-1, so it is sent now.",
            ),
        ],
    ),
]

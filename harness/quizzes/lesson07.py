"""Lesson 07's quiz: what caching does to the bill."""

from harness.quizzes import Question

QUESTIONS = [
    Question(
        "A call reports 10,000 prompt tokens (8,000 cached), 300 candidate tokens and 1,200"
        " thinking tokens. How many tokens bill at the output rate?",
        right=("1,500", "Thinking tokens bill as output, beside the answer's own tokens."),
        wrong=[
            ("300", "The thinking tokens are not free: they bill at the output rate too."),
            ("3,500", "The uncached input (2,000) bills at the input rate, not the output rate."),
        ],
        exercise="7.1",
    ),
    Question(
        "Why does capping tool outputs keep the cache while summarising loses it?",
        right=(
            "A cap is deterministic, so the shortened text is identical on every later call",
            "Same text at the same place: the prefix still matches.",
        ),
        wrong=[
            (
                "Caps are applied after the cache lookup",
                (
                    "No: the cap changes what is sent, before any lookup; it is its stability that"
                    " matters."
                ),
            ),
            (
                "Summaries are longer than caps",
                "Summaries are usually shorter; the problem is that they are new text at the top.",
            ),
        ],
    ),
    Question(
        "Your provider's cached rate is far below the break-even price of your sessions. What"
        " should you do first?",
        right=(
            "Keep the history, cap tool outputs, and watch the hit rate",
            "Cheap cached tokens make an append-only history the cheapest option.",
        ),
        wrong=[
            ("Summarise more often", "Below break-even every rewrite costs more than it saves."),
            (
                "Add a timestamp so the model knows the time",
                "A timestamp at the top destroys the cache on every call.",
            ),
        ],
        exercise="7.2",
    ),
]

"""Lesson 00's quiz: what a request holds and what it costs."""

from harness.quizzes import Question

QUESTIONS = [
    Question(
        "A call reports prompt_token_count=10,000 and cached_content_token_count=8,000. "
        "How many input tokens are billed at the full rate?",
        right=(
            "2,000",
            "The prompt count includes the cached tokens, so the full-rate part is 10,000 - 8,000.",
        ),
        wrong=[
            (
                "18,000",
                (
                    "The prompt count already includes the cached tokens: adding them counts them"
                    " twice."
                ),
            ),
            ("10,000", "8,000 of those are cached and billed at the cached rate."),
        ],
        exercise="0.1",
    ),
    Question(
        "You send a history with a 'model' message you wrote yourself. What does the model make"
        " of it?",
        right=(
            "It reads it as its own earlier reply.",
            "The model has no memory: the history you send is the only record of the past.",
        ),
        wrong=[
            (
                "It rejects it: only the model can write model messages.",
                "The API accepts any text in a model turn; it cannot know who wrote it.",
            ),
            ("It ignores it.", "Everything in the request is read; nothing else is."),
        ],
    ),
    Question(
        "Why does the workbook count tokens with approx_tokens rather than Gemini's own tokenizer?",
        right=(
            "The SDK's local tokenizer downloads its model, so it cannot run offline.",
            "And one shared counter makes every number in the workbook agree with the glass box.",
        ),
        wrong=[
            (
                "It is more accurate.",
                "It is an approximation (about four characters per token), not Gemini's tokenizer.",
            ),
            ("Gemini has no tokenizer.", "It has one; it is just not available offline."),
        ],
    ),
]

"""Lesson 05's quiz: where to cut, and when to compact."""

from harness.quizzes import Question

QUESTIONS = [
    Question(
        "Why cut just before a model message?",
        right=(
            "A function call and its response are never separated",
            (
                "The call is in the model message and its response in the user message after it: "
                "a cut before the model message keeps both on the same side."
            ),
        ),
        wrong=[
            (
                "It keeps the summary short",
                "Where you cut changes what is folded, not how short the summary is.",
            ),
            (
                "The model reads model messages better",
                (
                    "Roles do not change what the model reads best; the API's pairing rule is what"
                    " matters."
                ),
            ),
        ],
        exercise="5.1",
    ),
    Question(
        "The prompt was 4,108 tokens with budget 5,000 and ratio 0.7. What happens?",
        right=(
            "The next call is preceded by a compaction",
            (
                "4,108 > 3,500: the harness compacts before calling again (turn 9 of the real run"
                " reported in « Le budget de contexte »)."
            ),
        ),
        wrong=[
            (
                "Nothing: 4,108 is under 5,000",
                "The trigger is ratio x budget = 3,500, not the budget itself.",
            ),
            (
                "The session stops",
                "Stopping is the session token cap's job (400,000 tokens), a cost guard.",
            ),
        ],
        exercise="5.2",
    ),
    Question(
        "Your agent works on one long task. Which cut rule lets it compact mid-task?",
        right=(
            "Just before a model message",
            "Every model message starts a turn, so there is a safe cut between any two turns.",
        ),
        wrong=[
            (
                "Only at real user turns",
                (
                    "A single task has one real user turn, the task itself: that rule never fires"
                    " mid-task."
                ),
            ),
            (
                "Anywhere, if the summary is good",
                (
                    "A cut between a call and its response is rejected by the API, whatever the"
                    " summary says."
                ),
            ),
        ],
    ),
    Question(
        "Your compaction rebuilt the kept model turns from their text and calls. On Gemini 3, "
        "what does the next request get?",
        right=(
            "A 400: a function call of the current turn lacks its thought signature",
            (
                "Gemini 3 signs the first function call of each step and wants each signature back "
                "on the call that carried it; a rebuilt call carries none until you put it back."
            ),
        ),
        wrong=[
            (
                "Nothing changes: a signature matters only when streaming",
                "It matters for every request whose current turn holds a function call.",
            ),
            (
                "A weaker answer, since the model lost its reasoning",
                "The API refuses the request outright (400 INVALID_ARGUMENT): nothing is answered.",
            ),
        ],
        exercise="5.3",
    ),
]

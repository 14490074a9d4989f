"""Lesson 06's quiz: state the harness holds, and resuming a run."""

from harness.quizzes import Question

QUESTIONS = [
    Question(
        "After a compaction, the agent re-applies an edit and gets 'old text not found'. The most"
        " robust fix?",
        right=(
            "A state block written by the harness: edited files and last verdict",
            (
                "The harness saw every successful edit_file and every test verdict: it states them,"
                " whatever the summary says."
            ),
        ),
        wrong=[
            (
                "A bigger summary budget",
                (
                    "It saves this run, not the next: a longer task or a model that thinks "
                    "more hits the same wall, and a summary is lossy even when whole."
                ),
            ),
            (
                "Keeping more recent turns",
                "It delays the problem: those turns leave the window later.",
            ),
        ],
        exercise="6.1",
    ),
    Question(
        "The summary says 'Changes made: none' and both edits are in the kept turns. Is the summary"
        " wrong?",
        right=(
            "No: it is exact for the messages it summarised, and stale for the session",
            (
                "That is why the note says the later messages take precedence, and why the harness"
                " holds state."
            ),
        ),
        wrong=[
            ("Yes, it lies", "It reports what it was given: the folded messages held no edit."),
            ("Yes, the summariser skipped the edits", "The edits were never in its input."),
        ],
        exercise="6.2",
    ),
    Question(
        "A summary call with max_output_tokens=600 on a thinking model stops at MAX_TOKENS with 142"
        " tokens of text. Where did the rest of the budget go?",
        right=(
            "To thought tokens, spent from the same budget before the text",
            (
                "On a thinking model max_output_tokens caps thoughts and answer together, thoughts"
                " first: the usage's thoughts_token_count shows them."
            ),
        ),
        wrong=[
            (
                "To the prompt: the transcript counts against it",
                (
                    "The prompt has its own limit; "
                    "max_output_tokens caps only what the model generates."
                ),
            ),
            (
                "To the harness-held state block",
                (
                    "The harness writes that block itself, after the call: "
                    "no model generates it, so no output budget is spent on it."
                ),
            ),
        ],
    ),
    Question(
        "A run is killed after turn 7, mid-way through writing turn 8's line. What does resume do?",
        right=(
            "Drops the torn line with a warning and runs turn 8 again",
            "Turn 8 never completed on disk, so it runs once; the seven complete turns are kept.",
        ),
        wrong=[
            ("Starts over", "Seven complete turns are on disk: starting over would waste them."),
            (
                "Refuses to resume",
                "A torn last line is the expected shape of a kill, not a corruption.",
            ),
        ],
    ),
]

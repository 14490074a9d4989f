"""Lesson 13's quiz: moving details to files, reading them back, and memory across sessions."""

from harness.quizzes import Question

QUESTIONS = [
    Question(
        "The harness moves each old exchange into a file and the agent reads only the index. What "
        "does "
        "the context of a turn grow with?",
        right=(
            "What the question needs: the index, the files it follows, the recent turns",
            (
                "Every other detail waits in its file; a harder question follows more lines of the "
                "index."
            ),
        ),
        wrong=[
            (
                "The length of the session, more slowly",
                (
                    "Only if the index itself grows without limit: give it a budget and the window "
                    "stays flat."
                ),
            ),
            (
                "Nothing: the window stays empty until the model asks",
                (
                    "The system text, the opening, the recent turns and the index are read on every"
                    " turn."
                ),
            ),
        ],
    ),
    Question(
        "Your index has a budget and the oldest files fall off it. A question needs one of them. "
        "What "
        "still finds it?",
        right=(
            "A search of the files themselves, such as grep in the corpus shell",
            "The file was moved, not deleted: the index only stopped pointing at it.",
        ),
        wrong=[
            (
                "Nothing: a file the index does not list is lost",
                "Moving is reversible: the file is still in the knowledge base.",
            ),
            (
                "A larger summary of the session",
                (
                    "There is no summary here: what is lost to a summary is gone, what is in a file"
                    " is not."
                ),
            ),
        ],
        exercise="13.1",
    ),
    Question(
        "The tutor article switched its corpus shell off. What happened to grounding, and why does "
        "the "
        "way it was counted matter?",
        right=(
            "It barely moved; a metric counting only the search tool had first shown the opposite",
            (
                "Counted fairly (both paths) it was 100% with the shell and 96% without; counting "
                "searches "
                "alone scored every grep as a miss."
            ),
        ),
        wrong=[
            (
                "It collapsed: the agent used the shell in most turns",
                "Use is not need: 89% of turns used it, and single-hop questions did not need it.",
            ),
            (
                "It rose from 50% to 96%, so the shell hurt",
                "That was the first reading, an artifact of a metric that ignored what grep found.",
            ),
        ],
    ),
    Question(
        "Last week the student said their platform is Godot; today they say it is now Unity. What "
        "should "
        "the next session's memory say, and how is it put in front of the model?",
        right=(
            "Unity, in a block of data at the start that says it holds facts, not instructions",
            (
                "Newer statements win at consolidation; the injected block is data, and anything"
                " that reads as an order is left out."
            ),
        ),
        wrong=[
            (
                "Both, so the model can choose",
                "Two platforms leave the model to guess; consolidation keeps one fact per subject.",
            ),
            (
                "Godot, since it was said first and has been confirmed longer",
                (
                    "Stale memory overriding what the user said last is the failure consolidation "
                    "prevents."
                ),
            ),
        ],
        exercise="13.2",
    ),
]

"""Lesson 08's quiz: measuring memory with planted facts."""

from harness.quizzes import Question

QUESTIONS = [
    Question(
        "Your compacting config scores 98% with a global quality judge. What does that tell you"
        " about memory?",
        right=(
            "Nothing: a fluent answer that ignores a planted fact still scores well",
            "Only planted-fact probes graded on their key points measure memory.",
        ),
        wrong=[
            ("Memory is fine", "A global judge never sees what the user said earlier."),
            ("Memory is 98%", "Quality and recall are different measurements."),
        ],
        exercise="8.1",
    ),
    Question(
        "Why reject runs where compaction never fired before the probe?",
        right=(
            "The fact was still in the window, so the probe tested nothing",
            "The probe must be answered after the context was rewritten to measure the rewrite.",
        ),
        wrong=[
            ("They are too cheap", "Cost has nothing to do with it."),
            ("They crashed", "They ran fine; they just do not test compaction."),
        ],
        exercise="8.2",
    ),
    Question(
        "Why does recall fall with the number of compactions on the glass box?",
        right=(
            (
                "Each summary is written from the previous one within a fixed word budget, newest"
                " facts first"
            ),
            "Old facts lose their place at every rewrite: the loss compounds.",
        ),
        wrong=[
            ("The model gets tired", "The glass box has no fatigue: it only reads its window."),
            ("The cache expires", "Caching changes the bill, never the answer."),
        ],
    ),
]

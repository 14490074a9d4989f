"""Lesson 09's quiz: categories, triggers and the decision table."""

from harness.quizzes import Question

QUESTIONS = [
    Question(
        "A request is 7,600 tokens of a 10,000-token window, 5,000 of them tool outputs. Threshold"
        " 0.7. First action?",
        right=(
            "Mask the resolved tool outputs",
            (
                "7,600 > 7,000 and tool outputs are over half of it: masking removes the bulk at no"
                " loss (the full text stays with the harness); compaction comes next only if the"
                " total is still too high."
            ),
        ),
        wrong=[
            (
                "Compact the history",
                (
                    "Compaction is lossy and rewrites the whole past; when tool outputs dominate, "
                    "masking them first does most of the work for free."
                ),
            ),
            (
                "Nothing: 7,600 is under the window",
                (
                    "The trigger is threshold x window (7,000), not the window: "
                    "it leaves room for the answer and the next tool output."
                ),
            ),
        ],
        exercise="9.2",
    ),
    Question(
        "Documents are at 2,100 tokens, their allocation 20% of 10,000; the total is only 4,000."
        " What fires?",
        right=(
            "Drop the least relevant document",
            (
                "A category past its own allocation gets its own remedy, whatever the total: 2,100"
                " > 2,000."
            ),
        ),
        wrong=[
            (
                "Nothing until the total passes 70%",
                (
                    "That is a single trigger; a budget by category acts on "
                    "the category that overspends, before the total is at risk."
                ),
            ),
            (
                "Compact the history",
                (
                    "History is within its allocation; compacting it would not touch the "
                    "documents that overspend."
                ),
            ),
        ],
    ),
    Question(
        "Why act on triggers rather than mask and compact every N turns?",
        right=(
            "Each rewrite costs: a lost cache prefix, a summary call, lost detail",
            (
                "A trigger acts when the measurement says it is needed; a schedule pays those costs"
                " on turns that needed nothing, and can still be late on a turn that did."
            ),
        ),
        wrong=[
            (
                "Schedules are harder to code",
                "A schedule is one modulo; the reason is what each rewrite costs.",
            ),
            (
                "The API refuses periodic rewrites",
                "The API accepts any valid history; the cost is yours.",
            ),
        ],
    ),
    Question(
        "In which category does the model's function call read_file(path='README.md') count?",
        right=(
            "History",
            (
                "The call is the model's move; only the function response, the tool's output,"
                " counts as a tool output."
            ),
        ),
        wrong=[
            (
                "Tool outputs",
                "Only the response part holds the output; masking replaces responses, never calls.",
            ),
            (
                "Tool definitions",
                "Definitions are the declarations sent with every request, not the calls.",
            ),
        ],
        exercise="9.1",
    ),
    Question(
        "You give tool outputs 0.20 of the window, less than the files the agent must compare at"
        " once. What happens?",
        right=(
            (
                "Masking fires on every call, the agent reads the masked files again, and it never"
                " finishes"
            ),
            (
                "The lesson's run at 0.20: masking on every call from turn 11, the same five files"
                " read 29 times, no test run, stopped at 30 turns. Size an allocation from a"
                " measured run."
            ),
        ),
        wrong=[
            (
                "The context stays small and the task finishes sooner",
                "Small, yes; finished, no: the remedy removes what the next step needs.",
            ),
            (
                "Nothing: allocations only matter past the 70% threshold",
                (
                    "A category's own trigger fires whatever the total: that is what budgets by"
                    " category add."
                ),
            ),
        ],
    ),
]

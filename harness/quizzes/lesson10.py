"""Lesson 10's quiz: when to partition, what the coordinator costs, and when it must refuse to
merge."""

from harness.quizzes import Question

QUESTIONS = [
    Question(
        "A task's estimated context is 700,000 tokens and the model's window is 1,048,576. What"
        " does the 60% rule of « Techniques d'Optimisation de Contexte » advise?",
        right=(
            "Plan partitioning: 700,000 is past 0.6 x 1,048,576 (about 629,000)",
            (
                "The rule is about the estimate before the run: past 60% of the window, one context"
                " would need aggressive compaction, so split the task into sub-agents."
            ),
        ),
        wrong=[
            (
                "Nothing yet: the task still fits in the window",
                (
                    "Fitting is not the test: a context past 60% leaves too little room for the"
                    " outputs still to come, and compaction would have to fire again and again."
                ),
            ),
            (
                "Compact at 70% and keep one agent",
                (
                    "Compaction at 70% is the remedy inside one context; the guide reserves"
                    " partitioning for a task whose estimate already passes 60% before it starts."
                ),
            ),
        ],
        exercise="10.1",
    ),
    Question(
        "Why does partitioning cost more than one agent on a task with one sub-task?",
        right=(
            "The coordinator's own call comes on top of the same work",
            (
                "One sub-agent does exactly what the single agent did, and the coordinator then"
                " reads its report: the overhead is all that changes."
            ),
        ),
        wrong=[
            (
                "Sub-agents have smaller windows",
                "A sub-agent has the same model and window; it simply needs less of it.",
            ),
            (
                "The merge runs the tests again with the model",
                (
                    "The harness runs the merged tests itself, with no model call; only the"
                    " coordinator's report call is extra."
                ),
            ),
        ],
    ),
    Question(
        "Two sub-agents both finished, and both edited config.py, with different texts. What should"
        " the merge do?",
        right=(
            "Refuse, naming the file and both partitions",
            (
                "Neither text can be kept without losing the other partition's fix: the task was"
                " split along a file two partitions share, so give that file to one partition and"
                " run again."
            ),
        ),
        wrong=[
            (
                "Keep the text of the last partition",
                (
                    "The first partition's fix is then lost silently, and its tests, which passed"
                    " in its own workspace, fail after the merge."
                ),
            ),
            (
                "Merge them: both partitions finished",
                (
                    "Finishing is necessary, not sufficient: two finished partitions can still"
                    " conflict."
                ),
            ),
        ],
        exercise="10.2",
    ),
    Question(
        "Partitioning costs fewer tokens from 2 sub-tasks (measured, every run finishing), and the"
        " 60% rule splits only at 4. What do you do with 3 sub-tasks?",
        right=(
            "Partition: below the 60% line the choice is one of cost, and the measurement decides",
            (
                "The 60% rule guards the window before any run; where it says nothing, the sweep"
                " you measured says partitioning is cheaper and finishes."
            ),
        ),
        wrong=[
            (
                "One agent: the 60% rule has not fired",
                (
                    "The rule says when one context cannot hold the work, not when partitioning"
                    " stops paying; and at 3 the peak the agent sent passed 60% though the estimate"
                    " did not."
                ),
            ),
            (
                "Partition only from 4, to be safe",
                (
                    "Waiting for the window rule pays the single agent's extra tokens at 2 and 3"
                    " sub-tasks for nothing: both ways finish."
                ),
            ),
        ],
    ),
]

"""Lesson 06's quiz: state the harness holds, and resuming a run."""
from harness.quiz import Question

QUESTIONS = [
    Question("After a compaction, the agent re-applies an edit and gets 'old text not found'. The most robust fix?",
             right=("A state block written by the harness: edited files and last verdict",
                    "The harness saw every successful edit_file and every test verdict: it states them, "
                    "whatever the summary says."),
             wrong=[("A longer summary", "A longer summary is still a summary of the folded messages only, and still lossy."),
                    ("Keeping more recent turns", "It delays the problem: those turns leave the window later.")]),
    Question("The summary says 'Changes made: none' and both edits are in the kept turns. Is the summary wrong?",
             right=("No: it is exact for the messages it summarised, and stale for the session",
                    "That is why the note says the later messages take precedence, and why the harness holds state."),
             wrong=[("Yes, it lies", "It reports what it was given: the folded messages held no edit."),
                    ("Yes, the summariser skipped the edits", "The edits were never in its input.")]),
    Question("A run is killed after turn 7, mid-way through writing turn 8's line. What does resume do?",
             right=("Drops the torn line with a warning and runs turn 8 again",
                    "Turn 8 never completed on disk, so it runs once; the seven complete turns are kept."),
             wrong=[("Starts over", "Seven complete turns are on disk: starting over would waste them."),
                    ("Refuses to resume", "A torn last line is the expected shape of a kill, not a corruption.")]),
]

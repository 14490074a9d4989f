"""The tutor session the memory lessons run: facts planted at turn 0, course questions, probes.

A session opens with a task message (history[0], which compaction always keeps), then the student
plants three facts about themselves, asks course questions that each pull long passages into the
context, and finally is probed on the planted facts. Some questions carry a small new fact of
their own ("My laptop has 16 GB..."): the summariser keeps the newest user facts first, so these
push the planted ones out of a summary's word budget, as later chatter does in a real session.

Each probe has key points written before any run; an answer passes when it contains all of them.
"""

from typing import NamedTuple

OPENING = (
    "Tutoring session on the Context Engineering course. I will ask questions as I work through it."
)

PLANTED = (
    "I work on narrated museum tours that I build in Godot. My weak spot is prompt cache pricing. "
    "Each narration must begin playing within 250 ms."
)

QUESTIONS = (
    "My laptop has 16 GB of memory. What does the model read on every call?",
    "Why is the context window a limited resource?",
    "I have a team of three. How does implicit prefix caching work?",
    "What is a cache hit rate and why should I watch it?",
    "My deadline is in June. Why do timestamps in the system instruction hurt?",
    "When does an explicit cache pay for its storage?",
    "I prefer short answers. Why do tool outputs dominate long sessions?",
    "How should a harness cap a long tool output?",
    "My manager asked about costs. What does observation masking replace?",
    "What is lost when a sliding window moves?",
    "I like worked examples. What does summarising old turns cost?",
    "When should compaction fire?",
    "Where may a history be cut safely?",
    "My tests run in CI. What state should the harness hold itself?",
)


class Probe(NamedTuple):
    question: str
    key_points: tuple[str, ...]


PROBES = (
    Probe("Which toolkit builds my museum tours?", ("Godot",)),
    Probe("Which topic is my weak spot?", ("prompt cache pricing",)),
    Probe("How quickly must each narration begin playing?", ("250 ms",)),
)

"""The course tutor's glass box: a policy for requests that declare `search_course`.

It reads only the request, like every behaviour of the glass box:

    last content is a user question       -> call search_course with the question
    last content is search_course's reply -> answer from the whole window (the reader's rules)
    a summary instruction                 -> the summariser's summary (prefix-preserving calls)
    a user message without a question     -> the reader's short acknowledgement

    >>> request = {"tools": [{"functionDeclarations": [{"name": "search_course"}]}],
    ...            "contents": [{"role": "user", "parts": [{"text": "I use Linux. What is a prefix cache?"}]}]}
    >>> Tutor().act(request)
    [{'functionCall': {'name': 'search_course', 'args': {'query': 'What is a prefix cache?'}}}]

So what it answers depends on the window alone: a fact the student planted is recalled while it is
in view, and quietly replaced by the best-matching course sentence once compaction drops it.
"""

from harness.engine import reader, summariser
from harness.engine.prompt import content_text
from harness.engine.scenario import Scenario, register

TOOL = "search_course"


def _question_of(content: dict) -> str:
    """The question sentences of a user message ('' when it asks nothing)."""
    return " ".join(s for s in reader.sentences(content_text(content)) if s.endswith("?"))


class Tutor(Scenario):
    name, tools = "course", frozenset({TOOL})

    def act(self, request: dict) -> list[dict]:
        summary = summariser.respond(request)
        if summary is not None:  # checked first: a summary instruction must not trigger a search
            return summary
        contents = request.get("contents") or []
        last = contents[-1] if contents else {}
        question = _question_of(last) if (last.get("role") or "user") == "user" else ""
        if question:
            return [{"functionCall": {"name": TOOL, "args": {"query": question}}}]
        return reader.respond(request)


register(Tutor())

"""Checks for lesson 05: safe split points (5.1) and compaction (5.2)."""
import re

from google.genai import types

from harness.checks import call, exercise, must_refuse, rule
from harness.checks.lesson04 import agent_history
from harness.transcript import transcript_text_of

SUMMARY = "**Changes made:** none"


def _history(turns: int = 5) -> list:
    """The task, then `turns` tool turns (call + response), then a final model text."""
    history = agent_history(*[("read_file", {"path": f"file{n}.py"}, f"content {n}") for n in range(turns)])
    return history + [types.Content(role="model", parts=[types.Part.from_text(text="Done.")])]


def _dump(contents) -> list:
    return [c.model_dump(exclude_none=True) for c in contents]


@exercise("5.1", "safe split points", reference="harness.compaction.safe_split_points")
def check_split_points(fn) -> str:
    rid = "5.1"
    history = _history(3)  # roles: user, model, user, model, user, model, user, model
    rule(list(call(rid, fn, history)) == [1, 3, 5, 7], rid,
         "the split points of [task, call, response, call, response, call, response, text] are [1, 3, 5, 7].",
         "a split point is the index of a model message (never index 0).")
    compacted = history[:1] + [types.Content(role="user", parts=[types.Part.from_text(text=SUMMARY)])] + history[3:]
    rule(list(call(rid, fn, compacted)) == [2, 4, 6], rid,
         "after a compaction the history is [task, summary, call, response, call, response, text]: its split "
         "points are [2, 4, 6]. A function response is never a split point: cutting there orphans it from its call.",
         "pick the indices whose message has role 'model', whatever their position.")
    rule(list(call(rid, fn, history[:1])) == [], rid, "a history holding only the task has no split point.",
         "index 0 (the task) is never a split point.")
    return "cuts only before model messages"


@exercise("5.2", "compact a history", reference="harness.compaction.compact")
def check_compact(fn) -> str:
    rid = "5.2"
    history = _history(5)  # model messages at 1, 3, 5, 7, 9, 11
    seen = []
    result = call(rid, fn, history, 3, lambda text: seen.append(text) or SUMMARY)
    rule(isinstance(result, tuple) and len(result) == 2, rid, "compact must return (new_history, n_compacted).",
         "return a tuple of two values.")
    new, folded = result
    rule(folded == 6, rid, f"keeping 3 turns of this history folds 6 messages (history[1:7]); got {folded}.",
         "split = safe_split_points(history)[-keep_recent_turns]; n_compacted = split - 1.")
    rule(_dump(new[1:]) == _dump(history[7:]), rid, "the kept turns must survive word for word, from the split to the end.",
         "new history = [head, *history[split:]].")
    rule(seen == [transcript_text_of(history[1:7])], rid,
         "summarize must be called once, with transcript_text_of(history[1:split]) (the task is not in it).",
         "the task is kept as it is; only the messages between it and the split are summarised.")
    head = new[0]
    text = "\n".join(p.text or "" for p in head.parts or [])
    rule(head.role == "user" and "Fix the invoicing tests." in text and SUMMARY in text, rid,
         "the first message must be a user message holding the task text and the summary.",
         "build one types.Content(role='user', ...) with the task, the note and the summary.")
    rule(re.search(r"\b6\b", text.replace(SUMMARY, "")) is not None and "precedence" in text.lower(), rid,
         "the note must say how many messages the summary replaces (6) and that the messages after it take precedence.",
         "e.g. '[Summary of the 6 earlier messages ... the messages that follow take precedence over it.]'")
    unchanged, zero = call(rid, fn, history[:5], 3, lambda text: SUMMARY)
    rule(zero == 0 and _dump(unchanged) == _dump(history[:5]), rid,
         "with no more split points than keep_recent_turns, return the history unchanged and 0.",
         "compare len(safe_split_points(history)) with keep_recent_turns first.")
    must_refuse(rid, fn, (((history, 0, lambda t: SUMMARY), "keep_recent_turns=0"),
                          ((history[1:], 3, lambda t: SUMMARY), "a history whose first message is not the user's task")),
                "keep_recent_turns must be at least 1; history[0] must be a user message with the task's text.")
    return "split before a model message, recent turns intact, note names the count"

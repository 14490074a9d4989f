"""Lessons 05 and 06: fold old turns into a summary, without ever breaking a call from its response.

A history is [task, model, user, model, user, ...]. A model message may hold function calls,
and the user message after it holds their responses, so a cut just before a model message is the
only cut that never separates the two:

>>> from google.genai import types
>>> def say(role, text): return types.Content(role=role, parts=[types.Part.from_text(text=text)])
>>> history = [say("user", "Fix the tests."), say("model", "a"), say("user", "b"), say("model", "c"), say("user", "d")]
>>> safe_split_points(history)
[1, 3]
>>> new, folded = compact(history, keep_recent_turns=1, summarize=lambda text: "**Changes made:** none")
>>> folded, [c.role for c in new], new[0].parts[0].text
(2, ['user', 'model', 'user'], 'Fix the tests.')

The summary is made from the folded messages only, so a second compaction replaces the first
summary rather than adding to it: what the harness must never lose, it holds itself (6.1).
"""

from collections.abc import Iterable
from typing import Callable

from google.genai import types

from harness.formats import state_block
from harness.plumbing import sessions_in_process
from harness.plumbing.arguments import (
    checked,
    require_client,
    require_instance,
    require_list_of_text,
)
from harness.transcript import transcript_text_of

CONTEXT_BUDGET = (
    24_000  # tokens a prompt may grow to before the harness steps in (« Le budget de contexte »)
)
COMPACT_RATIO = 0.7  # compact at 70% of the budget: early enough that the summary call has room
KEEP_RECENT_TURNS = 3  # the last three turns stay word for word: the model is still working on them

SUMMARY_PROMPT = (
    "Summarise the transcript of a coding agent's session for the agent itself: it will continue "
    "from your summary and the few messages kept after it, and will not see the transcript again. "
    "Write each of these headings once, in this order: **Objective:**, **Files read:** (each path "
    "with the exact line that matters), **Changes made:** (only edits you see in the transcript, "
    "else 'none'), **Last tests:** (the last verdict line, exact), **Discarded hypotheses:**, "
    "**Still to do:**. Keep paths, numbers and error messages exact. At most 150 words."
)


@checked
def safe_split_points(history: list[types.Content]) -> list[int]:
    """Indices where a cut keeps every function call with its response: just before a model
    message."""
    return [i for i, content in enumerate(history) if i > 0 and content.role == "model"]


@checked
def task_text(history: list[types.Content]) -> str:
    """The task: the first text of history[0], which must be a user message (ValueError
    otherwise)."""
    first = history[0] if history else None
    text = next((p.text for p in first.parts or [] if p.text), None) if first else None
    if first is None or first.role != "user" or not text:
        raise ValueError(
            "history[0] must be the task: a user message with text. "
            "Start the history with types.Content(role='user', parts=[Part.from_text(text=task)])."
        )
    return text


@checked(keep_recent_turns=(1, 10**6))
def compact(
    history: list[types.Content],
    keep_recent_turns: int,
    summarize: Callable[[str], str],
    state: str = "",
):
    """Replace all but the task and the last `keep_recent_turns` turns by a summary.

    Returns (new_history, n_compacted). The new first message is the task, a note naming how
    many messages the summary replaces, the summary, then `state` (harness-held, lesson 06).
    """
    # `history` is checked once, above: the helpers below get it as it is (their `unchecked`
    # bodies).
    task = task_text.unchecked(history)
    points = safe_split_points.unchecked(history)
    if len(points) <= keep_recent_turns:
        return list(history), 0
    split = points[-keep_recent_turns]
    summary = summarize(transcript_text_of.unchecked(history[1:split]))
    note = (
        f"[Summary of the {split - 1} earlier messages, compacted by the harness. The messages"
        " after this one are kept word for word and take precedence over this summary.]"
    )
    parts = [types.Part.from_text(text=task), types.Part.from_text(text=f"{note}\n{summary}")]
    if state:
        parts.append(types.Part.from_text(text=state))
    return [types.Content(role="user", parts=parts), *history[split:]], split - 1


def _file_paths(name: str, value) -> None:
    """A list, tuple or set of paths: a set is sorted, so it must not be a one-shot iterator."""
    require_instance(name, value, (list, tuple, set, frozenset), "a list of file paths")
    require_list_of_text(name, value)


def _calls(content) -> list[types.Part]:
    return [part for part in content.parts or [] if part.function_call is not None]


@checked
def keep_signatures(old_turn: list[types.Content], rebuilt_turn: list[types.Content]) -> list:
    """`rebuilt_turn` with the thought signatures of `old_turn` back on the calls that carried them.

    Gemini 3 and later put a `thought_signature` (bytes) on the first function call of each step and
    answer 400 when a call of the current turn comes back without it (Google, "Thought Signatures",
    ai.google.dev/gemini-api/docs/thought-signatures, read 2026-12-01). A harness that rebuilds
    the turn (dropping the model's text, shortening arguments) must carry them over: message for
    message, the k-th function call of a rebuilt model message gets the signature of the k-th
    function call of the old one. Nothing else gets one; a call that had none gets none.

    >>> call = lambda name, sig=None: types.Part(function_call=types.FunctionCall(name=name), thought_signature=sig)
    >>> old = [types.Content(role="model", parts=[types.Part.from_text(text="Both files."), call("read_file", b"s1"),
    ...                                           call("list_files")])]
    >>> lean = [types.Content(role="model", parts=[call("read_file"), call("list_files")])]
    >>> [part.thought_signature for part in keep_signatures(old, lean)[0].parts]
    [b's1', None]
    """
    if len(old_turn) != len(rebuilt_turn):
        raise ValueError(
            f"old_turn has {len(old_turn)} messages and rebuilt_turn {len(rebuilt_turn)}: "
            "rebuild the turn message for message, so each signature has its place."
        )
    kept = []
    for index, (old, new) in enumerate(zip(old_turn, rebuilt_turn)):
        old_calls, new_calls = _calls(old), _calls(new)
        if old.role != new.role or [p.function_call.name for p in old_calls] != [
            p.function_call.name for p in new_calls
        ]:
            raise ValueError(
                f"message {index} does not match: a rebuilt message must keep its role and its "
                "function calls, by name and in order."
            )
        signatures = iter(part.thought_signature for part in old_calls)
        parts = [
            (
                part.model_copy(update={"thought_signature": next(signatures)})
                if part.function_call is not None
                else part
            )
            for part in new.parts or []
        ]
        kept.append(types.Content(role=new.role, parts=parts))
    return kept


@checked(edited_files=_file_paths)
def harness_state(edited_files: Iterable[str], last_verdict: str | None) -> str:
    """The facts the harness holds itself (from the tool calls), for the head of a compacted
    history.

    >>> print(harness_state({"b.py", "a.py"}, "1 failed, 5 passed"))
    [Harness-held state: recorded by the harness from the tool calls themselves; authoritative.]
    Edited files: a.py, b.py
    Last test verdict: 1 failed, 5 passed
    """
    return state_block.unchecked(edited_files, last_verdict)


@checked(client=require_client, max_output_tokens=(1, 10**9))
def summarizer_for(
    client, model: str | None = None, max_output_tokens: int | None = None
) -> Callable[[str], str]:
    """A `summarize` function that asks the model, with SUMMARY_PROMPT as system instruction.

    `max_output_tokens`: the summary budget (None: no cap). A summary cut at it ends where the
    budget ran out (finishReason MAX_TOKENS), and on a thinking model the thoughts are spent from it
    first. Each call's usage metadata is appended to the function's `usages` list (summaries are
    billed too), and its finish reason to `finish_reasons` ("STOP", or "MAX_TOKENS" for a cut
    summary).
    """
    from harness import MODEL

    def summarize(transcript: str) -> str:
        # client.models.generate_content, in-process on the glass box (see the agent's loop)
        response = sessions_in_process.generate_content(
            client,
            model=model or MODEL,
            contents=transcript,
            config=types.GenerateContentConfig(
                system_instruction=SUMMARY_PROMPT, max_output_tokens=max_output_tokens
            ),
        )
        summarize.usages.append(response.usage_metadata)
        finish = response.candidates[0].finish_reason if response.candidates else None
        summarize.finish_reasons.append(getattr(finish, "name", finish or ""))
        return response.text or ""

    summarize.usages, summarize.finish_reasons = [], []
    return summarize

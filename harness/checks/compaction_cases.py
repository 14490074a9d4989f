"""Exercises 5.2 and 6.2's generated cases: histories to compact, and what differs from the rule on
them.

The histories have 0 to 6 tool turns (some with parallel calls, each first call signed), a final
text or not, keep_recent_turns from 1 to 4 (so some have no more split points than turns kept), a
state block or not, and some start from a history compacted once already: compacting it again must
keep the task alone (the first text part of history[0]), without the old summary or state.
"""

import inspect
import re

from google.genai import types

from harness.checks import rule
from harness.checks.compare import Case, Diff, generator
from harness.compaction import compact


def _dump(contents) -> list:
    """Messages as comparable dicts (thought signatures included)."""
    return [c.model_dump(exclude_none=True) for c in contents]


def takes_state(rid: str, fn) -> None:
    """compact takes `state` (lesson 06 passes the harness-held state through it)."""
    try:
        inspect.signature(fn).bind([], 1, len, "state")
        accepts = True
    except TypeError:
        accepts = False
    except ValueError:  # a builtin without a signature: let the calls decide
        accepts = True
    rule(
        accepts,
        rid,
        "compact must take a fourth argument, state (default ''): lesson 06 passes the "
        "harness-held state through it.",
        'keep the signature compact(history, keep_recent_turns, summarize, state="").',
        "takes state",
    )


class _Numbered:
    """A fake `summarize`: records each transcript, answers "NEW SUMMARY n"."""

    def __init__(self):
        self.calls = []

    def __call__(self, text: str) -> str:
        self.calls.append(text)
        return f"NEW SUMMARY {len(self.calls)}"


OLD_SUMMARY, OLD_STATE = (
    "OLD SUMMARY of the first steps",
    "[Harness-held state: OLD STATE]\nEdited files: old.py",
)
STATE = (
    "[Harness-held state: recorded by the harness.]\nEdited files: a.py\nLast test verdict: 1"
    " failed, 5 passed"
)


def _tool_turn(n: int, parallel: bool) -> list:
    paths = [f"file{n}.py"] + ([f"more{n}.py"] if parallel else [])
    calls = [types.Part.from_function_call(name="read_file", args={"path": p}) for p in paths]
    calls[0] = calls[0].model_copy(update={"thought_signature": f"sig-{n}".encode()})
    return [
        types.Content(role="model", parts=calls),
        types.Content(
            role="user",
            parts=[
                types.Part.from_function_response(
                    name="read_file", response={"output": f"text of {p}"}
                )
                for p in paths
            ],
        ),
    ]


def _ccase(turns, keep, state, compacted, final) -> Case:
    """turns: a parallel flag per tool turn; compacted: start from a history compacted once
    already."""
    task = [
        types.Content(role="user", parts=[types.Part.from_text(text="Fix the invoicing tests.")])
    ]
    if compacted:
        earlier = task + [m for n in range(4) for m in _tool_turn(90 + n, False)]
        task = compact(earlier, 1, lambda text: OLD_SUMMARY, OLD_STATE if state else "")[0][:1]
    history = task + [m for n, parallel in enumerate(turns) for m in _tool_turn(n, parallel)]
    history += (
        [types.Content(role="model", parts=[types.Part.from_text(text="Done.")])] if final else []
    )
    shown = (
        f"compact(<task{' (compacted once already)' if compacted else ''}, {len(turns)} tool"
        f" turn{'' if len(turns) == 1 else 's'}"
        f"{' (some with parallel calls)' if any(turns) else ''}{', a final text' if final else ''}:"
        f" {len(history)} messages>, {keep}, summarize" + (", state" if state else "") + ")"
    )
    case = Case(history, keep, _Numbered(), state, note=shown)
    case.spec = (turns, keep, state, compacted, final)
    return case


def compaction_cases(with_state: bool) -> list:
    rng = generator()
    cases = []
    for _ in range(80):
        turns = [rng.random() < 0.25 for _ in range(rng.randint(0, 6))]
        state = STATE if with_state or rng.random() < 0.3 else ""
        cases.append(
            _ccase(turns, rng.randint(1, 4), state, rng.random() < 0.35, rng.random() < 0.5)
        )
    return cases


def smaller_compaction(case) -> list:
    turns, keep, state, compacted, final = case.spec
    out = [_ccase(turns[:-1], keep, state, compacted, final)] if turns else []
    out += [_ccase(turns, keep - 1, state, compacted, final)] if keep > 1 else []
    out += [_ccase([False] * len(turns), keep, state, compacted, final)] if any(turns) else []
    out += [_ccase(turns, keep, state, compacted, False)] if final else []
    return out + ([_ccase(turns, keep, state, False, final)] if compacted else [])


def compaction_differs(case, got, want):
    history, keep, summarize, state = case.args
    note = case.note
    if not (isinstance(got, tuple) and len(got) == 2 and isinstance(got[0], list)):
        return Diff(
            f"for {note} return (new_history, n_compacted), got {type(got).__name__}.",
            "return a tuple of two values.",
            "returns (new_history, n_compacted)",
        )
    (new, folded), (ref_new, ref_folded) = got, want
    if folded != ref_folded:
        return Diff(
            f"for {note} you folded {folded} messages; the rule folds {ref_folded}.",
            "the kept part starts at the keep_recent_turns-th split point counted from the end;"
            " compaction needs MORE split points than turns kept, and folds what lies between the"
            " task and that point.",
            "n_compacted",
        )
    if ref_folded == 0:
        if _dump(new) != _dump(history) or summarize.calls:
            return Diff(
                f"for {note} there is nothing to fold: return the history unchanged and 0, without"
                " calling summarize.",
                "compare the number of split points with keep_recent_turns first.",
                "nothing to fold: unchanged",
            )
        return None
    if summarize.calls != case.reference_args[2].calls:
        return Diff(
            f"for {note} summarize must be called once, with transcript_text_of(history[1:split]);"
            f" you called it {len(summarize.calls)} time(s), with other text.",
            "summarise only the messages between the task and the split point.",
            "summarize(history[1:split])",
        )
    if len(new) != len(ref_new) or _dump(new[1:]) != _dump(ref_new[1:]) or new[0].role != "user":
        return Diff(
            f"for {note} the new history must be ONE user message (task, note, summary, state)"
            " followed by history[split:] word for word, thought signatures included.",
            "keep the messages after the split point as they are.",
            "head message then the kept turns",
        )
    task = history[0].parts[0].text
    text = "\n".join(p.text or "" for p in new[0].parts or [])
    if OLD_SUMMARY in text or OLD_STATE in text or text.count(task) != 1:
        return Diff(
            f"for {note} the head must hold the task once and nothing of an earlier compaction:"
            " yours "
            + (
                "carries the old summary or state."
                if OLD_SUMMARY in text or OLD_STATE in text
                else f"holds the task {text.count(task)} times."
            ),
            "the task is the FIRST text part of history[0]: on a compacted history the parts after"
            " it are the old note, summary and state, which the new summary and state replace.",
            "compacting twice keeps the task alone",
        )
    summary = f"NEW SUMMARY {len(summarize.calls)}"
    rest = text.replace(summary, "").replace(state, "") if state else text.replace(summary, "")
    if (
        summary not in text
        or not re.search(rf"\b{ref_folded}\b", rest)
        or "precedence" not in text.lower()
    ):
        return Diff(
            f"for {note} the head must hold the summary and a note naming the {ref_folded} messages"
            " it replaces and saying that the messages after it take precedence.",
            "task, then the note and the summary, in the parts of the head message.",
            "the note and summary",
        )
    if state and (state not in text or text.find(state) < text.find(summary)):
        return Diff(
            f"for {note} the state must appear whole in the head, after the summary.",
            "append `state` to the head message's parts, after the summary.",
            "state after the summary",
        )
    return None

"""Checks for lesson 05: safe split points (5.1), compaction (5.2), thought signatures kept (5.3).

After the named cases each check compares the answer with the reference on generated histories
(`harness.checks.compare`): empty and one-message histories, parallel calls, histories with no
more split points than turns kept, and histories compacted once already, which must compact
again without carrying the old summary or state inside "the task" (the first text part of
history[0]). Lesson 06's 6.2 reuses the compaction comparison, with a state block every time.
"""

import re

from google.genai import types

from harness.checks import call, exercise, must_refuse, rule
from harness.checks.compaction_cases import (
    _dump,
    compaction_cases,
    compaction_differs,
    smaller_compaction,
    takes_state,
)
from harness.checks.compare import Case, Diff, compare, generator
from harness.checks.lesson04 import agent_history
from harness.compaction import compact, keep_signatures, safe_split_points
from harness.transcript import transcript_text_of

SUMMARY = "**Changes made:** none"


def signed(history) -> list:
    """`history` as Gemini 3 returns it: the first function call of each model message carries a
    thought signature (bytes, here made up), which must come back untouched."""
    out = []
    for index, content in enumerate(history):
        parts = list(content.parts or [])
        if content.role == "model" and parts and parts[0].function_call:
            parts[0] = parts[0].model_copy(update={"thought_signature": f"sig-{index}".encode()})
        out.append(types.Content(role=content.role, parts=parts))
    return out


def _history(turns: int = 5) -> list:
    """The task, then `turns` tool turns (call + response, signed), then a final model text."""
    history = agent_history(
        *[("read_file", {"path": f"file{n}.py"}, f"content {n}") for n in range(turns)]
    )
    return signed(history) + [
        types.Content(role="model", parts=[types.Part.from_text(text="Done.")])
    ]


@exercise("5.1", "safe split points", reference="harness.compaction.safe_split_points")
def check_split_points(fn) -> str:
    """The answer is held to: the indices of model messages after index 0, on any history."""
    rid = "5.1"
    history = _history(3)  # roles: user, model, user, model, user, model, user, model
    rule(
        list(call(rid, fn, history)) == [1, 3, 5, 7],
        rid,
        "the split points of [task, call, response, call, response, call, response, text] are [1,"
        " 3, 5, 7].",
        "a split point is the index of a model message (never index 0).",
    )
    compacted = (
        history[:1]
        + [types.Content(role="user", parts=[types.Part.from_text(text=SUMMARY)])]
        + history[3:]
    )
    rule(
        list(call(rid, fn, compacted)) == [2, 4, 6],
        rid,
        "after a compaction the history is [task, summary, call, response, call, response, text]:"
        " its split points are [2, 4, 6]. A function response is never a split point: cutting there"
        " orphans it from its call.",
        "pick the indices whose message has role 'model', whatever their position.",
    )
    rule(
        list(call(rid, fn, history[:1])) == [],
        rid,
        "a history holding only the task has no split point.",
        "index 0 (the task) is never a split point.",
    )
    compare(rid, fn, safe_split_points, _split_cases(), _split_differs, _smaller_split)
    return "cuts only before model messages"


def _scase(roles) -> Case:
    history = [
        types.Content(role=role, parts=[types.Part.from_text(text=f"message {i}")])
        for i, role in enumerate(roles)
    ]
    case = Case(history, note=f"safe_split_points(a history with roles [{', '.join(roles)}])")
    case.roles = roles
    return case


# Models before 3.5 also take a function response turn under role "function" or "tool" (read as the
# user's; harness/engine/wire.py), so a history may hold those roles too: never a split point.
RESPONSE_ROLES = ("function", "tool")


def _split_cases() -> list:
    rng = generator()
    return (
        [
            _scase([]),
            _scase(["user"]),
            _scase(["model"]),
            _scase(["user", "model", "function", "model"]),
        ]
        + [
            _scase([rng.choice(("user", "model")) for _ in range(rng.randint(0, 8))])
            for _ in range(150)
        ]
        + [
            _scase(
                [
                    rng.choice(("user", "model", "model") + RESPONSE_ROLES)
                    for _ in range(rng.randint(1, 8))
                ]
            )
            for _ in range(60)
        ]
    )


def _smaller_split(case) -> list:
    return [_scase(case.roles[:i] + case.roles[i + 1 :]) for i in range(len(case.roles))]


def _split_differs(case, got, want):
    try:
        got = list(got)
    except TypeError:
        return Diff(
            f"for {case.note} return a list of indices, got {type(got).__name__}.",
            "return a list.",
            "returns a list",
        )
    if got == want:
        return None
    if any(
        0 <= i < len(case.roles) and case.roles[i] in RESPONSE_ROLES
        for i in got
        if isinstance(i, int)
    ):
        return Diff(
            f"for {case.note} your split points are {got}; the rule gives {want}: a message under"
            " role 'function' or 'tool' holds function responses (models before 3.5 take them),"
            " and a cut before it orphans them from their call.",
            "which role is the only one a kept part may start with?",
            "split points are the model messages after index 0",
        )
    return Diff(
        f"for {case.note} your split points are {got}; the rule gives {want}.",
        "a split point is the index of a model message, never index 0, whatever the roles"
        " around it.",
        "split points are the model messages after index 0",
    )


class _Summariser:
    """A fake `summarize` that records what it is given."""

    def __init__(self):
        self.calls = []

    def __call__(self, text: str) -> str:
        self.calls.append(text)
        return SUMMARY


@exercise("5.2", "compact a history", reference="harness.compaction.compact")
def check_compact(fn) -> str:
    """The answer is held to: what is folded and kept, one summarize call on history[1:split],
    one head message (task, note naming the count, summary, state) then the kept turns word for
    word; a compacted history compacts again with the task alone; takes `state`."""
    rid = "5.2"
    takes_state(rid, fn)
    # model messages at 1, 3, 5, 7, 9, 11: keeping 3 turns cuts before index 7
    history = _history(5)
    summarize = _Summariser()
    result = call(rid, fn, history, 3, summarize)
    rule(
        isinstance(result, tuple) and len(result) == 2,
        rid,
        "compact must return (new_history, n_compacted).",
        "return a tuple of two values.",
    )
    new, folded = result
    rule(
        folded == 6,
        rid,
        f"keeping 3 turns of this 12-message history folds 6 messages (1 to 6); got {folded}.",
        "the kept part starts at the 3rd safe split point counted from the END; what lies between"
        " the task and that point is folded. Print safe_split_points(history) for this history and"
        " count.",
    )
    rule(
        isinstance(new, list)
        and len(new) == len(history) - folded
        and new[0].role == "user"
        and new[1].role == "model",
        rid,
        "the task, the note and the summary must be ONE user message, followed directly by the"
        f" kept turns (which start with a model message): expected {len(history) - folded}"
        f" messages, got {len(new) if isinstance(new, list) else type(new).__name__}.",
        "put the task, the note and the summary in the parts of a single"
        " types.Content(role='user').",
    )
    rule(
        _dump(new[1:]) == _dump(history[7:]),
        rid,
        "the kept turns must survive word for word, thought signatures included, from the split to"
        " the end.",
        "keep the messages after the split point as they are: do not rebuild them from their text"
        " or calls.",
    )
    rule(
        summarize.calls == [transcript_text_of(history[1:7])],
        rid,
        "summarize must be called once, with transcript_text_of(history[1:split]) (the task is not"
        " in it).",
        "the task is kept as it is; only the messages between it and the split are summarised.",
    )
    head = new[0]
    text = "\n".join(p.text or "" for p in head.parts or [])
    rule(
        "Fix the invoicing tests." in text and SUMMARY in text,
        rid,
        "the first message must hold the task text and the summary.",
        "the head's parts: the task's text, then the note and the summary.",
    )
    rule(
        re.search(r"\b6\b", text.replace(SUMMARY, "")) is not None and "precedence" in text.lower(),
        rid,
        "the note must say how many messages the summary replaces (6) and that the messages after"
        " it take precedence.",
        "e.g. '[Summary of the N earlier messages ... the messages that follow take precedence over"
        " it.]'",
    )
    # fewer split points than turns kept, then exactly as many
    for size, points in (
        (5, 2),
        (7, 3),
    ):
        summarize = _Summariser()
        unchanged, zero = call(rid, fn, history[:size], 3, summarize)
        rule(
            zero == 0 and _dump(unchanged) == _dump(history[:size]) and not summarize.calls,
            rid,
            f"with {points} split points and keep_recent_turns=3 there is nothing to fold: return"
            " the history unchanged and 0, without calling summarize"
            + (
                " (your compact called it with an empty transcript)."
                if "" in summarize.calls
                else "."
            ),
            "compaction needs MORE split points than turns kept; compare the two before anything"
            " else.",
        )
    must_refuse(
        rid,
        fn,
        (
            ((history, 0, lambda t: SUMMARY), "keep_recent_turns=0"),
            (
                (history[1:], 3, lambda t: SUMMARY),
                "a history whose first message is not the user's task",
            ),
        ),
        "keep_recent_turns must be at least 1; history[0] must be a user message with the task's"
        " text.",
    )
    compare(
        rid, fn, compact, compaction_cases(with_state=False), compaction_differs, smaller_compaction
    )
    return (
        "split before a model message, recent turns intact (signatures too), note names the count"
    )


def _call(name: str, path: str, signature: bytes | None = None) -> types.Part:
    return types.Part(
        function_call=types.FunctionCall(name=name, args={"path": path}),
        thought_signature=signature,
    )


def _signatures(contents) -> list:
    return [
        [
            (p.function_call.name if p.function_call else "text", p.thought_signature)
            for p in c.parts or []
        ]
        for c in contents
    ]


@exercise("5.3", "keep thought signatures", reference="harness.compaction.keep_signatures")
def check_keep_signatures(fn) -> str:
    """The answer is held to: each call gets its own call's thought signature, nothing else gets
    one, mismatched turns refused, inputs unchanged."""
    rid = "5.3"
    say = types.Part.from_text(text="Two files to read.")
    reply = types.Content(
        role="user",
        parts=[types.Part.from_function_response(name="read_file", response={"output": "x"})],
    )
    # One turn of two steps: parallel calls (only the first signed), their responses, then a second
    # step.
    old = [
        types.Content(
            role="model", parts=[say, _call("read_file", "a.py", b"s1"), _call("read_file", "b.py")]
        ),
        reply,
        types.Content(role="model", parts=[_call("run_command", ".", b"s2")]),
    ]
    before = _dump(old)
    lean = [
        types.Content(role="model", parts=[_call("read_file", "a.py"), _call("read_file", "b.py")]),
        reply,
        types.Content(role="model", parts=[_call("run_command", ".")]),
    ]
    lean_before = _dump(lean)
    out = call(rid, fn, old, lean)
    rule(
        _dump(old) == before and _dump(lean) == lean_before,
        rid,
        "old_turn and rebuilt_turn must not be changed.",
        "return new Content objects; Part.model_copy(update={...}) makes a changed copy of a part.",
    )
    rule(
        isinstance(out, list)
        and len(out) == 3
        and [c.role for c in out] == ["model", "user", "model"],
        rid,
        "return the rebuilt turn, message for message (a list of the same length and roles).",
        "one new Content for each message of rebuilt_turn.",
    )
    got = _signatures(out)
    rule(
        any(signature for message in got for _, signature in message),
        rid,
        "the turn's thought signatures (here b's1' and b's2') must come back; yours were all"
        " dropped.",
        "read the thought_signature of each function call part in old_turn.",
    )
    rule(
        got[0][0][1] == b"s1",
        rid,
        "the signature belongs to the call that carried it, the FIRST of the parallel calls"
        f" (read_file a.py): got {got[0]}. The old message starts with a text part, so counting all"
        " parts puts it on the wrong call.",
        "match function calls with function calls, in order: the k-th call of the old message to"
        " the k-th call of the rebuilt one.",
    )
    rule(
        got[0][1][1] is None,
        rid,
        "the second parallel call had no signature in the old turn, so it must get none: got"
        f" {got[0]}.",
        "Gemini signs only the first call of a step: copy each call's own signature, None"
        " included.",
    )
    rule(
        got[2][0][1] == b"s2",
        rid,
        "each step keeps its OWN signature: the second step's call must get b's2', "
        f"got {got[2][0][1]!r}.",
        "work message by message: a signature never moves to another message.",
    )
    rule(
        _dump(out[1:2]) == _dump([reply]),
        rid,
        "messages without function calls must come back as they are.",
        "only function call parts change.",
    )
    with_text = [
        types.Content(
            role="model",
            parts=[
                types.Part.from_text(text="Two files."),
                _call("read_file", "a.py"),
                _call("read_file", "b.py"),
            ],
        ),
        reply,
        lean[2],
    ]
    got = _signatures(call(rid, fn, old, with_text))
    rule(
        got[0] == [("text", None), ("read_file", b"s1"), ("read_file", None)],
        rid,
        "a text part never takes a call's signature, and the second parallel call has none: got"
        f" {got[0]}.",
        "give signatures only to function call parts, counted among the function calls.",
    )
    unsigned = [types.Content(role="model", parts=[_call("read_file", "a.py")])]
    got = _signatures(
        call(rid, fn, unsigned, [types.Content(role="model", parts=[_call("read_file", "a.py")])])
    )
    rule(
        got == [[("read_file", None)]],
        rid,
        "a call that had no signature (a Gemini 2.5 turn) must get none.",
        "copy what is there; never invent a signature.",
    )
    must_refuse(
        rid,
        fn,
        (
            ((old, lean[:2]), "a rebuilt turn with fewer messages than the old one"),
            (
                (
                    old,
                    [lean[0], reply, types.Content(role="model", parts=[_call("list_files", ".")])],
                ),
                "a rebuilt message whose function calls are not the old one's",
            ),
        ),
        "a signature has a place only in the same message and the same call: refuse turns that do"
        " not match.",
    )
    compare(rid, fn, keep_signatures, _signature_cases(), _signature_differs, _smaller_signatures)
    return "signatures back on the first call of each step, nowhere else"


_NAMES = ("read_file", "list_files", "run_command")


def _kcase(steps, mismatch) -> Case:
    """steps: per model message, (has a text part, [(name, signed)]); each followed by its
    responses."""
    old, lean = [], []
    for n, (text, calls) in enumerate(steps):
        parts = [
            _call(name, f"{n}.py", f"s{n}-{k}".encode() if signed else None)
            for k, (name, signed) in enumerate(calls)
        ]
        old.append(
            types.Content(
                role="model", parts=([types.Part.from_text(text="Next.")] if text else []) + parts
            )
        )
        lean.append(
            types.Content(role="model", parts=[_call(name, f"{n}.py") for name, _ in calls])
        )
        responses = [
            types.Part.from_function_response(name=name, response={"output": "x"})
            for name, _ in calls
        ]
        for turn in (old, lean):
            turn.append(types.Content(role="user", parts=responses))
    if mismatch and lean:
        lean = lean[:-1]
    shown = "; ".join(
        f"{'text + ' if text else ''}{', '.join(name + (' (signed)' if signed else '') for name, signed in calls)}"
        for text, calls in steps
    )
    case = Case(
        old,
        lean,
        note=f"keep_signatures(a turn of [{shown}]"
        + (", a rebuilt turn one message short)" if mismatch else ")"),
    )
    case.spec = (steps, mismatch)
    return case


def _signature_cases() -> list:
    rng = generator()
    cases = [_kcase([], False)]
    for _ in range(80):
        steps = [
            (
                rng.random() < 0.4,
                [
                    (rng.choice(_NAMES), rng.random() < (0.8 if k == 0 else 0.2))
                    for k in range(rng.randint(1, 3))
                ],
            )
            for _ in range(rng.randint(1, 3))
        ]
        cases.append(_kcase(steps, rng.random() < 0.1))
    return cases


def _smaller_signatures(case) -> list:
    steps, mismatch = case.spec
    out = [
        _kcase(steps[:i] + steps[i + 1 :], mismatch) for i in range(len(steps)) if len(steps) > 1
    ]
    return out + [
        _kcase([(text, calls[:-1])] + steps[i + 1 :], mismatch)
        for i, (text, calls) in enumerate(steps[:1])
        if len(calls) > 1
    ]


def _signature_differs(case, got, want):
    if (
        isinstance(got, list)
        and all(isinstance(c, types.Content) for c in got)
        and _dump(got) == _dump(want)
    ):
        return None
    mine = (
        _signatures(got)
        if isinstance(got, list) and all(isinstance(c, types.Content) for c in got)
        else got
    )
    return Diff(
        f"for {case.note} you returned signatures {mine}; the rule gives {_signatures(want)}.",
        "the k-th function call of each rebuilt message gets the signature of the k-th function"
        " call of the old one (None stays None); every other part comes back as it is.",
        "each call gets its own call's signature",
    )

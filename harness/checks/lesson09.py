"""Checks for lesson 09: a request's tokens by category (9.1) and the trigger policy (9.2).

After the named cases each is compared with the reference on generated inputs
(`harness.checks.compare`): 9.1 on requests of every kind of part (text, retrieved documents in
user and in model messages, calls, responses, a bare thought signature, a message with no parts)
and no tools or some; 9.2 on usages that sit exactly at the threshold, at half the request, at an
allocation, just past each, with allocations that leave a category out and actions already done.
"""

from google.genai import types

from harness.budgets import CATEGORIES, SEED_ALLOCATIONS, part_tokens, split_by_category
from harness.checks import call, exercise, must_refuse, rule
from harness.checks.compare import Case, Diff, compare, generator
from harness.checks.lesson04 import agent_history
from harness.formats import document_text
from harness.tokens import approx_tokens
from harness.tools import TOOL
from harness.triggers import next_action

SYSTEM = "You are a careful coding agent."
DOC = document_text(1, "Rounding", "Amounts round half up to the cent, once, after the discount.")


def _request():
    """The task with one retrieved document, a read_file call and its output, the model's last
    words."""
    history = agent_history(
        ("read_file", {"path": "README.md"}, "# invoicing\nDiscount from 50 units.")
    )
    history[0] = types.Content(
        role="user", parts=[*history[0].parts, types.Part.from_text(text=DOC)]
    )
    return history + [
        types.Content(role="model", parts=[types.Part.from_text(text="Both bugs fixed.")])
    ]


@exercise(
    "9.1", "split a request's tokens by category", reference="harness.budgets.split_by_category"
)
def check_split(fn) -> str:
    """The answer is held to: all five categories, each part in its own (responses as tool
    outputs, documents only in user text parts, calls and the task as history), counted by
    part_tokens, system and tools counted, the total the request's prompt tokens, inputs
    unchanged."""
    rid = "9.1"
    contents = _request()
    want = split_by_category(SYSTEM, [TOOL], contents)
    got = call(rid, fn, SYSTEM, [TOOL], contents)
    rule(
        isinstance(got, dict) and set(got) == set(CATEGORIES),
        rid,
        f"return a dict with exactly the keys {list(CATEGORIES)}, even for a category at 0; got "
        f"{sorted(got) if isinstance(got, dict) else type(got).__name__}.",
        _keys_hint(got),
    )
    rule(
        got["tool_outputs"] == want["tool_outputs"],
        rid,
        f"tool_outputs is the function responses, counted with part_tokens: {want['tool_outputs']}"
        f" here; got {got['tool_outputs']}.",
        _tool_outputs_hint(got["tool_outputs"], contents),
    )
    rule(
        got["documents"] == want["documents"],
        rid,
        f"documents is the user text parts that is_document() recognises: {want['documents']} here;"
        f" got {got['documents']}.",
        "the task is a user text part too, but not a document: test each part, not each message.",
    )
    rule(
        got["system"] == want["system"] and got["tools"] == want["tools"],
        rid,
        f"system ({want['system']}) and tools ({want['tools']}) are part of every request; got"
        f" system {got['system']}, tools {got['tools']}.",
        "count the system instruction with approx_tokens and the declarations with tool_tokens.",
    )
    rule(
        got == want,
        rid,
        f"the task, the model's text and its calls are history ({want['history']} here); got "
        f"{got['history']}.",
        "every part that is neither a tool output nor a document is history.",
    )
    compare(rid, fn, split_by_category, _split_cases(), _split_differs, _smaller_split)
    return "every part in its category; the five add up to the request's prompt tokens"


def _keys_hint(got) -> str:
    """What is wrong with the keys, as the check saw it."""
    if not isinstance(got, dict):
        return (
            f"your function returned a {type(got).__name__}: the lesson reads the counts by"
            " category name."
        )
    missing, extra = [k for k in CATEGORIES if k not in got], sorted(set(got) - set(CATEGORIES))
    return (
        f"your dict lacks {missing}: a category with nothing in this request is still there, at 0."
        if missing
        else f"your dict has keys that are no category: {extra}."
    )


def _tool_outputs_hint(counted: int, contents) -> str:
    """Why a tool_outputs count is off, from what it matches."""
    parts = [p for c in contents for p in c.parts or []]
    responses = [p for p in parts if p.function_response is not None]
    calls = sum(part_tokens(p) for p in parts if p.function_call is not None)
    texts = sum(
        approx_tokens(str((p.function_response.response or {}).get("output", "")))
        for p in responses
    )
    if counted == sum(part_tokens(p) for p in responses) + calls:
        return (
            "a function call is the model's move (history); only function_response parts are tool"
            " outputs."
        )
    if counted == texts:
        return (
            "your count is the output text alone: a function response sends its name and its"
            " structure too; count the whole part as the glass box does (part_tokens)."
        )
    if counted == 0:
        return "you counted no function response: where does a tool's output sit in a request?"
    return "count each function_response part with part_tokens, as the glass box does."


def _part(kind: str, n: int) -> types.Part | None:
    if kind == "text":
        return types.Part.from_text(text=f"Step {n}: read the module, then run the tests.")
    if kind == "document":
        return types.Part.from_text(
            text=document_text(n + 1, f"Page {n + 1}", "Invoices round half up. " * (n % 3 + 1))
        )
    if kind == "call":
        return types.Part.from_function_call(name="read_file", args={"path": f"module_{n}.py"})
    if kind == "response":
        return types.Part.from_function_response(
            name="run_command", response={"output": "1 failed, 5 passed " * n}
        )
    if kind == "signature":
        return types.Part(thought_signature=b"sig")
    return None


def _scase(spec, tools: bool, system: str) -> Case:
    """spec: [(role, [kind, ...]), ...]; kind "empty" makes a message with no parts."""
    contents = [
        types.Content(
            role=role,
            parts=None if kinds == ["empty"] else [_part(k, n) for n, k in enumerate(kinds)],
        )
        for role, kinds in spec
    ]
    shown = "; ".join(f"{role}: {', '.join(kinds)}" for role, kinds in spec)
    case = Case(
        system,
        [TOOL] if tools else [],
        contents,
        note=f"split_by_category({system!r}, {'[TOOL]' if tools else '[]'}, [{shown}])",
    )
    case.spec = (spec, tools, system)
    return case


def _split_cases() -> list:
    rng = generator()
    cases = [
        _scase([], False, ""),
        _scase([("user", ["empty"])], False, SYSTEM),
        _scase([("model", ["document"])], False, ""),
        _scase([("model", ["signature", "call"])], True, ""),
    ]
    for _ in range(120):
        spec = []
        for _ in range(rng.randint(0, 5)):
            role = rng.choice(("user", "model"))
            # Kinds the wire allows in that role: calls come from the model, responses from the
            # user's side.
            kinds = (
                ("text", "document", "response", "signature")
                if role == "user"
                else ("text", "document", "call", "signature")
            )
            spec.append(
                (
                    role,
                    (
                        ["empty"]
                        if rng.random() < 0.05
                        else [rng.choice(kinds) for _ in range(rng.randint(1, 3))]
                    ),
                )
            )
        cases.append(_scase(spec, rng.random() < 0.5, rng.choice(("", SYSTEM))))
    return cases


def _smaller_split(case) -> list:
    spec, tools, system = case.spec
    out = [_scase(spec[:i] + spec[i + 1 :], tools, system) for i in range(len(spec))]
    out += [
        _scase(spec[:i] + [(role, kinds[:j] + kinds[j + 1 :])] + spec[i + 1 :], tools, system)
        for i, (role, kinds) in enumerate(spec)
        for j in range(len(kinds))
        if len(kinds) > 1
    ]
    return (
        out
        + ([_scase(spec, False, system)] if tools else [])
        + ([_scase(spec, tools, "")] if system else [])
    )


def _split_differs(case, got, want):
    if got == want:
        return None
    if not isinstance(got, dict) or set(got) != set(CATEGORIES):
        shown = sorted(got) if isinstance(got, dict) else type(got).__name__
        return Diff(
            f"for {case.note} return a dict with exactly the keys {list(CATEGORIES)}, even for a"
            f" category at 0; got {shown}.",
            _keys_hint(got),
            "returns every category",
        )
    wrong = [name for name in CATEGORIES if got.get(name) != want[name]]
    shown = (
        ", ".join(f"{name} {got.get(name)} (the rule gives {want[name]})" for name in wrong)
        or f"extra keys {sorted(set(got) - set(CATEGORIES))}"
    )
    return Diff(
        f"for {case.note} your split has {shown}.",
        "a response is a tool output, a document is a user text part that is_document() recognises,"
        " the rest is history; count each part with part_tokens.",
        "each part counts in its category",
    )


# --- 9.2 ------------------------------------------------------------------------------------------


def usage(system=100, tools=500, documents=0, history=0, tool_outputs=0) -> dict:
    return {
        "system": system,
        "tools": tools,
        "documents": documents,
        "history": history,
        "tool_outputs": tool_outputs,
    }


ACTIONS = ("mask", "compact", "drop_document", "none")
# the seed's shares, reserve left out
CATEGORY_ONLY = {
    "tool_outputs": 0.35,
    "history": 0.30,
    "documents": 0.20,
}


@exercise("9.2", "the trigger policy", reference="harness.triggers.next_action")
def check_next_action(fn) -> str:
    """The answer is held to: past threshold x window, mask first when tool outputs are over half,
    then compact; a category past its allocation gets its own remedy (mask, drop_document, compact),
    in that order; strict comparisons at every boundary; an action in `done` never again; "none"
    otherwise; bad allocations refused.
    """
    rid = "9.2"
    window = 10_000
    quiet = call(rid, fn, usage(), SEED_ALLOCATIONS, window)
    rule(
        quiet in ACTIONS,
        rid,
        f"return one of {', '.join(map(repr, ACTIONS))} (a str); for a request with nothing "
        f"past any line you returned {quiet!r}.",
        "when no action is wanted, the answer is the word 'none' itself.",
        name="returns one of the four actions",
    )
    heavy = usage(documents=900, history=1200, tool_outputs=5400)  # 8,100 > 7,000, tool outputs 67%
    rule(
        call(rid, fn, heavy, SEED_ALLOCATIONS, window) == "mask",
        rid,
        "past 70% of the window with tool outputs over half the request, the first action is"
        " 'mask'.",
        "the decision table: when tool outputs dominate, mask first (cheap, nothing lost), compact"
        " after.",
    )
    rule(
        call(rid, fn, heavy, SEED_ALLOCATIONS, window, 0.7, ("mask",)) == "compact",
        rid,
        "once 'mask' is done and the total is still past the threshold, the next action is"
        " 'compact'.",
        "an action in `done` is never returned again: the next rule of the table applies.",
    )
    # 7,600 > 7,000, tool outputs 28%
    chatty = usage(documents=900, history=4000, tool_outputs=2100)
    rule(
        call(rid, fn, chatty, SEED_ALLOCATIONS, window) == "compact",
        rid,
        "past the threshold with tool outputs under half, the action is 'compact' (masking would"
        " gain little).",
        "look at what dominates the request before choosing.",
    )
    at = usage(documents=900, history=2500, tool_outputs=3000)  # exactly 7,000 = 0.7 x 10,000
    rule(
        call(rid, fn, at, SEED_ALLOCATIONS, window) == "none",
        rid,
        "a total exactly at threshold x window (7,000 of 10,000) is not past it, and every category"
        " is within its allocation x window (tool outputs 3,000 of 3,500): 'none'.",
        "'past' is strictly greater than, and an allocation is a share of the window, not of the"
        " request.",
    )
    rule(
        call(rid, fn, usage(documents=2100), SEED_ALLOCATIONS, window) == "drop_document",
        rid,
        "documents past their allocation (2,100 > 0.20 x 10,000) get their own remedy,"
        " 'drop_document', even far under the threshold.",
        "triggers per category: each category has its own allocation and its own remedy.",
    )
    rule(
        call(rid, fn, usage(history=3100), SEED_ALLOCATIONS, window) == "compact",
        rid,
        "history past its allocation (3,100 > 0.30 x 10,000) is compacted.",
        "history's remedy is 'compact'.",
    )
    rule(
        call(rid, fn, usage(tool_outputs=3600, documents=2100), SEED_ALLOCATIONS, window) == "mask",
        rid,
        "when several categories are past their allocations, tool outputs come first ('mask'), then"
        " documents, then history.",
        "try the remedies in the order tool outputs, documents, history.",
    )
    rule(
        call(rid, fn, usage(tool_outputs=3600), {"history": 0.3}, window) == "none",
        rid,
        "a category with no allocation never triggers its own remedy.",
        "only the categories in `allocations` have a limit of their own.",
    )
    big_system = call(rid, fn, usage(system=9000), SEED_ALLOCATIONS, window, 0.95)
    rule(
        big_system == "none",
        rid,
        "the system prompt and tool definitions are never cut: under the threshold they trigger"
        " nothing.",
        (
            "the total here, 9,500, is exactly at the threshold you were given, 0.95 x 10,000: is"
            " that past it?"
            if big_system == "compact"
            else "system and tools have no allocation and no remedy."
        ),
    )
    rule(
        call(rid, fn, heavy, SEED_ALLOCATIONS, window, 0.7, ("mask", "compact")) == "none",
        rid,
        "with every wanted action already done this turn, the answer is 'none'.",
        "never repeat an action in `done`.",
    )
    must_refuse(
        rid,
        fn,
        (
            (
                (usage(), {"tool_outputs": 0.6, "history": 0.5}, window),
                "allocations adding up to 1.1",
            ),
            ((usage(), {"system": 0.1}, window), "an allocation for the system prompt"),
        ),
        "start with check_allocations(allocations): shares of one window add up to at most 1, and"
        " only tool_outputs, history, documents and reserve get one.",
    )
    compare(rid, fn, next_action, _action_cases(), _action_differs, _smaller_action)
    return (
        "total trigger by the decision table, then each category's own remedy, strict at every"
        " boundary"
    )


_ALLOCATIONS = (
    SEED_ALLOCATIONS,
    CATEGORY_ONLY,
    {"tool_outputs": 0.5},
    {"documents": 0.1, "history": 0.2},
    {},
    {"tool_outputs": 0.4, "documents": 0.15, "history": 0.3, "reserve": 0.15},
)
_DONE = ((), (), ("mask",), ("compact",), ("mask", "compact"), ("drop_document",))


def _acase(counts: dict, allocations: dict, window: int, threshold: float, done: tuple) -> Case:
    case = Case(
        counts,
        allocations,
        window,
        threshold,
        done,
        note=f"next_action({counts}, {allocations}, {window}, {threshold}, {done})",
    )
    case.spec = (counts, allocations, window, threshold, done)
    return case


def _near(rng, limit: float) -> int:
    """A count at, just under or just past `limit` (an allocation or the threshold), or anywhere."""
    return max(
        0,
        rng.choice(
            (int(limit), int(limit) + 1, int(limit) - 1, rng.randint(0, int(limit) * 2 + 2))
        ),
    )


def _agrees_either_way(counts: dict, allocations: dict, window: int, threshold: float) -> bool:
    """True when `x > share * window` and `x / window > share` agree on every comparison of the
    case: where floating point tells them apart, neither way of writing it is wrong, so the case
    is left out."""
    pairs = [(sum(counts.values()), threshold)] + [
        (counts[c], s) for c, s in allocations.items() if c in counts
    ]
    return all((x > s * window) == (x / window > s) for x, s in pairs)


def _action_cases() -> list:
    rng = generator()
    cases = []
    while len(cases) < 200:
        window, threshold = rng.choice((1000, 2000, 10_000)), rng.choice((0.5, 0.7, 0.8, 1.0))
        allocations = rng.choice(_ALLOCATIONS)
        counts = usage(system=rng.choice((0, 50, 100)), tools=rng.choice((0, 100)))
        for name in ("documents", "history", "tool_outputs"):
            counts[name] = _near(rng, allocations.get(name, 0.3) * window)
        if rng.random() < 0.3:  # tool outputs at exactly half the request, the table's boundary
            rest = sum(v for k, v in counts.items() if k != "tool_outputs")
            counts["tool_outputs"] = rest
        if rng.random() < 0.3:  # the total exactly at the threshold
            gap = int(threshold * window) - sum(counts.values())
            counts["history"] = max(0, counts["history"] + gap)
        if sum(counts.values()) and _agrees_either_way(counts, allocations, window, threshold):
            cases.append(_acase(counts, allocations, window, threshold, rng.choice(_DONE)))
    return cases


def _smaller_action(case) -> list:
    counts, allocations, window, threshold, done = case.spec
    out = [
        _acase(counts, allocations, window, threshold, done[:i] + done[i + 1 :])
        for i in range(len(done))
    ]
    out += [
        _acase(counts, {k: v for k, v in allocations.items() if k != key}, window, threshold, done)
        for key in allocations
    ]
    return [c for c in out if _agrees_either_way(*c.spec[:4])]


def _action_differs(case, got, want):
    if got == want:
        return None
    counts, allocations, window, threshold, _ = case.spec
    total = sum(counts.values())
    edges = (
        (["the total is exactly at the threshold"] if total == threshold * window else [])
        + (
            ["tool outputs are exactly half the request"]
            if 2 * counts["tool_outputs"] == total
            else []
        )
        + [
            f"{name} is exactly at its allocation"
            for name, share in allocations.items()
            if name in counts and counts[name] == share * window
        ]
    )
    return Diff(
        f"for {case.note} you returned {got!r}; the rule gives {want!r} (total {total:,} against"
        f" {threshold:g} x {window:,} = {threshold * window:,.0f}; tool outputs"
        f" {counts['tool_outputs']:,} of {total:,}{''.join('; ' + edge for edge in edges)}).",
        _action_hint(case, got, edges),
        "the decision table and the category triggers",
    )


def _action_hint(case, got, edges) -> str:
    """What the measurements of this case are, and where the answer went astray: the symptom, not
    the rules."""
    counts, allocations, window, threshold, done = case.spec
    if got in done:
        return f"{got!r} is already in done: it was taken on this request."
    if edges:
        return f"here {' and '.join(edges)}: is your comparison strict there?"
    total = sum(counts.values())
    past = [
        f"{name} (past {share:g} x {window:,})"
        for name, share in allocations.items()
        if name in counts and counts[name] > share * window
    ]
    state = (
        (
            "the total is past the threshold"
            if total > threshold * window
            else "the total is under the threshold"
        )
        + (
            f"; past their allocation: {', '.join(past)}"
            if past
            else "; no category is past its allocation"
        )
        + (f"; already done: {', '.join(done)}" if done else "")
    )
    return f"{state}. Which line of the exercise picks the action for that, and in which order?"

"""Exercise 4.3's generated cases: histories of tool turns, and what differs from the rule on them.

The histories mix reads, edits and test runs (green, red, all-red, cut off), errors superseded or
not, parallel calls (two calls in one model message, their responses in one user message), outputs
masked once already, and keep_last from 1 to 4, shorter than the history or not. A masked output is
judged with the glass box's reader (`formats.masked_reference`): its wording is free, its prefix
and reference are not.
"""

from google.genai import types

from harness.checks.compare import Case, Diff, generator, literal
from harness.formats import masked_reference
from harness.masking import is_error, mask_observations

# The tool calls a generated history is made of: (name, path or command, output).
_CALLS = (
    ("read_file", "README.md", "# invoicing\nAmounts round half-up to the cent.\n" * 3),
    ("read_file", "a.py", "import decimal\n" * 4),
    ("read_file", "b.py", "BULK = 10\n" * 4),
    ("read_file", "c.py", "ERROR: c.py does not exist."),
    ("edit_file", "a.py", "Edited a.py"),
    ("edit_file", "a.py", "ERROR: old text not found in a.py."),
    ("edit_file", "b.py", "ERROR: old text not found in b.py."),
    ("run_command", "pytest", "collected 6 items\n=== 6 failed in 0.12s ==="),
    ("run_command", "pytest", "collected 6 items\n=== 1 failed, 5 passed in 0.02s ==="),
    ("run_command", "pytest", "collected 6 items\n=== 6 passed in 0.01s ==="),
    ("run_command", "pytest", "collected 6 items\nINTERNALERROR> the run stopped early"),
)


class Reversed(list):
    """A turn of parallel calls whose responses come back in the reverse order of the calls (the API
    pairs a response with a call by its name, not by its place)."""


def _turn_messages(turn) -> list:
    """A model message with the turn's calls (several: parallel calls) and the user message of
    responses."""

    def args(name, target):
        return {"command": target} if name == "run_command" else {"path": target}

    answered = turn[::-1] if isinstance(turn, Reversed) else turn
    return [
        types.Content(
            role="model",
            parts=[types.Part.from_function_call(name=n, args=args(n, t)) for n, t, _ in turn],
        ),
        types.Content(
            role="user",
            parts=[
                types.Part.from_function_response(name=n, response={"output": o})
                for n, _, o in answered
            ],
        ),
    ]


def _shown(turn) -> str:
    calls = "+".join(f"{n} {t} -> {literal(o.splitlines()[-1], 40)}" for n, t, o in turn)
    return calls + (" (answered in reverse order)" if isinstance(turn, Reversed) else "")


def _mcase(turns, keep_last, premasked) -> Case:
    history = [
        types.Content(role="user", parts=[types.Part.from_text(text="Fix the invoicing tests.")])
    ]
    for turn in turns:
        history += _turn_messages(turn)
    if premasked:  # outputs already masked by an earlier pass
        history = mask_observations(history, {}, 1)
    shown = ", ".join(_shown(turn) for turn in turns)
    case = Case(
        history,
        {},
        keep_last,
        mutable=(1,),
        note=(
            f"mask_observations([task, {shown}]{' (masked once already)' if premasked else ''},"
            f" store, keep_last={keep_last})"
        ),
    )
    case.spec = (turns, keep_last, premasked)
    case.reversed_at = {
        2 * number + 2 for number, turn in enumerate(turns) if isinstance(turn, Reversed)
    }
    return case


def masking_cases() -> list:
    rng = generator()
    cases = [_mcase([], 1, False), _mcase([[_CALLS[0]]], 3, False)]
    for _ in range(120):
        turns = [
            [rng.choice(_CALLS) for _ in range(1 if rng.random() < 0.8 else 2)]
            for _ in range(rng.randint(1, 6))
        ]
        cases.append(_mcase(turns, rng.randint(1, 4), rng.random() < 0.2))
    for _ in range(60):  # parallel calls of two tools, answered in either order
        turns = [
            [rng.choice(_CALLS) for _ in range(2 if rng.random() < 0.5 else 1)]
            for _ in range(rng.randint(1, 5))
        ]
        turns = [Reversed(t) if len(t) == 2 and rng.random() < 0.6 else t for t in turns]
        cases.append(_mcase(turns, rng.randint(1, 3), False))
    return cases


def smaller_masking(case) -> list:
    turns, keep_last, premasked = case.spec
    out = [_mcase(turns[:i] + turns[i + 1 :], keep_last, premasked) for i in range(len(turns))]
    out += [_mcase(turns, keep_last - 1, premasked)] if keep_last > 1 else []
    out += [_mcase(turns, keep_last, False)] if premasked else []
    out += (
        [_mcase([list(t) for t in turns], keep_last, premasked)]
        if any(isinstance(t, Reversed) for t in turns)
        else []
    )
    return (
        out + [_mcase([t[:1] for t in turns], keep_last, premasked)]
        if any(len(t) > 1 for t in turns)
        else out
    )


def _responses(history) -> list:
    return [
        (i, j)
        for i, c in enumerate(history)
        for j, p in enumerate(c.parts or [])
        if p.function_response
    ]


def masking_differs(case, got, want):
    history, store, keep_last = case.args
    shape = [(c.role, len(c.parts or [])) for c in history]
    if (
        not isinstance(got, list)
        or [(getattr(c, "role", None), len(getattr(c, "parts", None) or [])) for c in got] != shape
    ):
        return Diff(
            f"for {case.note} the new history must have the same messages and parts, in the same"
            " roles.",
            "replace outputs, never drop or add messages or parts.",
            "same messages, same roles",
        )
    if any(
        got[i].model_dump() != history[i].model_dump()
        for i, c in enumerate(history)
        if c.role == "model"
    ):
        return Diff(
            f"for {case.note} function calls must stay as they are.",
            "mask only function responses.",
            "function calls stay as they are",
        )
    model_turns = [i for i, c in enumerate(history) if c.role == "model"]
    cutoff = model_turns[-keep_last] if len(model_turns) >= keep_last else 0
    for number, (i, j) in enumerate(_responses(history), 1):
        original = _output_of(history[i].parts[j])
        mine, rule_s = _output_of(got[i].parts[j]), _output_of(want[i].parts[j])
        which = (
            f"output {number} ({history[i].parts[j].function_response.name}, turn"
            f" {model_turns.index(i - 1) + 1})"
        )
        if i in getattr(case, "reversed_at", ()) and (mine == original) != (rule_s == original):
            return Diff(
                f"for {case.note} you {'kept' if mine == original else 'masked'} {which}; the rule"
                f" {'masks' if mine == original else 'keeps'} it. Its turn's responses come back in"
                " another order than its calls.",
                "which call does each response answer? The exercise says how a "
                "response finds its call; its place in the message is not it.",
                "a response answers the oldest unanswered call of its name",
            )
        if rule_s == original and mine != original:
            why = (
                f"it is in one of the last {keep_last} turns"
                if i > cutoff
                else (
                    "it is already masked (masking it again would lose its reference)"
                    if masked_reference(original)
                    else (
                        "it is an error still being debugged: the latest output of its tool and"
                        " path (for run_command, the latest run)"
                    )
                )
            )
            return Diff(
                f"for {case.note} you masked {which}; the rule keeps it word for word: {why}.",
                "never mask the recent turns, an output already masked, or an error no later output"
                " of the same tool and path has superseded.",
                "keeps recent outputs and live errors",
            )
        if rule_s != original and mine == original:
            return Diff(
                f"for {case.note} you kept {which}; the rule masks it: it is older than the last"
                f" {keep_last} turns and not an error still being debugged"
                + (
                    " (a later output of the same tool and path superseded it)"
                    if is_error(original)
                    else ""
                )
                + ".",
                "mask everything before the last keep_last turns except the errors that are still"
                " the latest news about their tool and path.",
                "masks old outputs",
            )
        if rule_s != original:
            ref = masked_reference(str(mine))
            if ref is None:
                return Diff(
                    f"for {case.note} your masked {which} reads {literal(str(mine), 70)}: the glass"
                    " box does not read it as masked, so it takes it for a real output.",
                    "a masked output starts with '[masked ' then its reference; what follows is"
                    " yours to word.",
                    "a masked output is read as masked",
                )
            if store.get(ref) != original:
                return Diff(
                    f"for {case.note} your masked {which} names {ref!r}, but the store does not"
                    " hold its full text under that key.",
                    "store[ref] = output, and put ref right after '[masked '.",
                    "the store holds each masked output",
                )
    return None


def _output_of(part) -> str:
    return str((part.function_response.response or {}).get("output", ""))

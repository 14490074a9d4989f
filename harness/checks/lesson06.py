"""Checks for lesson 06: the harness-held state block (6.1) and compaction that carries it (6.2).

The wording of the block is free; what the glass box reads from it is not. So 6.1 reads the
student's block with the glass box's own reader (`harness.formats.parse_state`) on generated
inputs (lists, tuples, sets; no file, one, several; no verdict, green, red, all-red) and passes
exactly when that reader finds the edited files, sorted, and the last verdict. 6.2 runs lesson
05's compaction comparison with a state block every time, on histories compacted once already too:
the old state block must not pile up in the head.
"""

from harness.checks import call, exercise, rule
from harness.checks.compaction_cases import (
    compaction_cases,
    compaction_differs,
    smaller_compaction,
    takes_state,
)
from harness.checks.compare import Case, Diff, compare, generator
from harness.checks.lesson05 import SUMMARY, _dump, _history
from harness.compaction import compact, harness_state
from harness.formats import FILES_LABELS, VERDICT_LABELS, is_state_heading, parse_state


class _Unsorted(set):
    """A set whose iteration order is reverse-sorted under every hash seed, so an answer that joins
    the set without sorting it fails every time, not only under some PYTHONHASHSEED values."""

    def __iter__(self):
        return iter(sorted(set.__iter__(self), reverse=True))


@exercise("6.1", "harness-held state", reference="harness.compaction.harness_state")
def check_state(fn) -> str:
    """The answer is held to: a block headed as harness-held state from which the glass box's reader
    finds the edited files, sorted (or none), and the last verdict (or a 'no tests run' phrase), the
    input unchanged.
    """
    rid = "6.1"
    files = ("invoicing/amounts.py", "invoicing/discounts.py", "tests/test_amounts.py")
    edited = _Unsorted(files)
    block = call(rid, fn, edited, "1 failed, 5 passed")
    rule(
        isinstance(block, str),
        rid,
        f"harness_state must return a str, got {type(block).__name__}.",
        "build the block as one string with a line per fact.",
    )
    lines = [line for line in block.splitlines() if line.strip()]
    rule(
        bool(lines) and is_state_heading(lines[0]),
        rid,
        "the block's first line must head it as harness-held state.",
        "start with a line such as '[Harness-held state: ...]'.",
    )
    rule(
        set(edited) == set(files),
        rid,
        "the set of edited files must not be changed.",
        "sort a copy; never add to or remove from the set you were given.",
    )
    rule(
        len(lines) >= 3 and not any(path in lines[0] or "1 failed" in lines[0] for path in files),
        rid,
        "the heading, the edited files and the last verdict must each be on a line of their own "
        f"(your block has {len(lines)} line{'s' if len(lines) != 1 else ''}).",
        "join the lines with '\\n': one for the heading, one for the files, one for the verdict.",
    )
    positions = [block.find(path) for path in files]
    rule(
        all(p >= 0 for p in positions),
        rid,
        "the state block must list every edited file.",
        "put each path of edited_files on the files line.",
    )
    rule(
        positions == sorted(positions),
        rid,
        f"the edited files must be listed sorted ({', '.join(files)}); a set has no order of its"
        " own.",
        "sort the paths before joining them.",
    )
    rule(
        "1 failed, 5 passed" in block,
        rid,
        "the block must give the last test verdict.",
        "add a line with last_verdict.",
    )
    empty = call(rid, fn, set(), None).lower()
    rule(
        "none" in empty and "no tests" in empty,
        rid,
        "with no edits and no verdict, the block must say 'none' and a 'no tests run' phrase.",
        "an empty set joins to '': say 'none' instead; a missing verdict needs its own words too.",
    )
    compare(rid, fn, harness_state, _state_cases(), _state_differs, _smaller_state)
    return "heading, edited files sorted, last verdict, each on its line; explicit 'none'"


_PATHS = (
    "invoicing/amounts.py",
    "invoicing/discounts.py",
    "tests/test_amounts.py",
    "README.md",
    "a.py",
    "invoicing/zeta.py",
    "src/b-c/d_e.py",
)
_VERDICT_TEXTS = (
    None,
    "",
    "6 passed in 0.01s",
    "=== 6 failed in 0.12s ===",
    "1 failed, 5 passed",
    "=========== 1 failed, 5 passed in 0.02s ===========",
)
_CONTAINERS = (list, tuple, set, frozenset, _Unsorted)


def _state_case(kind, paths, verdict) -> Case:
    files = kind(paths)
    shown = {list: repr(list(paths)), tuple: repr(tuple(paths))}.get(
        kind, "{" + ", ".join(map(repr, paths)) + "}"
    )
    case = Case(
        files,
        verdict,
        note=f"harness_state({shown if paths or kind in (list, tuple) else 'set()'}, {verdict!r})",
    )
    case.spec = (kind, paths, verdict)
    return case


def _state_cases() -> list:
    rng = generator()
    cases = [_state_case(list, ["b.py", "a.py"], None), _state_case(list, [], "6 passed")]
    for _ in range(80):
        paths = rng.sample(_PATHS, rng.randint(0, 4))
        cases.append(_state_case(rng.choice(_CONTAINERS), paths, rng.choice(_VERDICT_TEXTS)))
    return cases


def _smaller_state(case) -> list:
    kind, paths, verdict = case.spec
    out = [_state_case(kind, paths[:i] + paths[i + 1 :], verdict) for i in range(len(paths))]
    return out + ([_state_case(list, paths, verdict)] if kind is not list else [])


def _labels(labels) -> str:
    return " or ".join(f"'{label}:'" for label in labels)


def _state_differs(case, got, want):
    if not isinstance(got, str):
        return Diff(
            f"for {case.note} return a str, got {type(got).__name__}.",
            "build the block as one string.",
            "returns a str",
        )
    lines = [line for line in got.splitlines() if line.strip()]
    if not lines or not is_state_heading(lines[0]):
        return Diff(
            f"for {case.note} the block's first line must head it as harness-held state; yours is "
            f"{(lines or [''])[0][:60]!r}.",
            "start with a line such as '[Harness-held state: ...]'.",
            "headed as harness-held state",
        )
    read, expected = parse_state(got), parse_state(want)
    if read[0] != expected[0] and read[0] is not None and sorted(read[0]) == expected[0]:
        return Diff(
            f"for {case.note} your block lists the edited files in the order {read[0]}; sorted,"
            f" they are {expected[0]}.",
            "sort the whole paths as strings, as sorted() does, whatever their folders "
            "or file names.",
            "the edited files sorted",
        )
    if read != expected:
        files = "no files line" if read[0] is None else f"edited files {read[0]}"
        return Diff(
            f"for {case.note} the glass box reads your block as {files} and last verdict "
            f"{read[1]!r}; it must read edited files {expected[0]} and {expected[1]!r}.",
            f"the glass box reads a files line labelled {_labels(FILES_LABELS)} (paths after the"
            " label, comma-separated, or one per bullet line below it; 'none' for no file),"
            f" sorted, and a verdict line labelled {_labels(VERDICT_LABELS)}.",
            "the glass box reads the files and verdict",
        )
    return None


@exercise("6.2", "compact with harness-held state", reference="harness.compaction.compact")
def check_compact_state(fn) -> str:
    """The answer is held to: 5.2's rules with the state whole after the summary; an old state
    block never piles up."""
    rid = "6.2"
    takes_state(rid, fn)
    history = _history(5)
    state = (
        "[Harness-held state: recorded by the harness.]\nEdited files: invoicing/amounts.py\nLast"
        " test verdict: 6 passed"
    )
    new, folded = call(rid, fn, history, 3, lambda text: SUMMARY, state)
    text = "\n".join(p.text or "" for p in new[0].parts or [])
    rule(
        state in text,
        rid,
        "the state text must appear, whole, in the first message after compaction.",
        "append `state` to the head message, after the summary.",
    )
    rule(
        text.find(SUMMARY) < text.find(state),
        rid,
        "the state must come after the summary.",
        "order: task, note, summary, state.",
    )
    rule(
        folded == 6 and _dump(new[1:]) == _dump(history[7:]),
        rid,
        "adding state must not change what is folded or kept.",
        "only the head message changes.",
    )
    plain, _ = call(rid, fn, history, 3, lambda text: SUMMARY)
    rule(
        "Harness-held" not in "\n".join(p.text or "" for p in plain[0].parts or []),
        rid,
        "with the default state='' the head must hold no state block.",
        "add the state only when it is not empty.",
    )
    compare(
        rid, fn, compact, compaction_cases(with_state=True), compaction_differs, smaller_compaction
    )
    return "state after the summary, in the first message; an old state block never piles up"

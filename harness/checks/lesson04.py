"""Checks for lesson 04: truncate a tool output (4.1), find the verdict (4.2), mask old outputs
(4.3).

After the named cases, each check compares the answer with the reference on generated inputs
around the contract's boundaries (`harness.checks.compare`): for 4.1 fractional head lengths,
texts one character either side of the cap, bad arguments on texts that fit; for 4.2 all-red,
all-green and mixed verdict lines among lines that are not verdicts; for 4.3 parallel calls,
histories shorter than keep_last, errors superseded or not, outputs already masked.
What is free (the marker's words, the masked reference's text) is read with the glass box's own
readers in `harness.formats`.
"""

import os
from itertools import product

from google.genai import types

from harness.checks import ExerciseFailed, call, exercise, must_refuse, rule
from harness.checks.compare import Case, Diff, compare, generator, literal
from harness.checks.masking_cases import masking_cases, masking_differs, smaller_masking
from harness.formats import names_count
from harness.masking import mask_observations
from harness.truncation import extract_verdict, truncate_output

# A long output whose every slice is recognisable: line numbers at the start of each line.
LOG = "".join(f"{n:05d} collected line of a long pytest log\n" for n in range(500))
PYTEST_TAIL = (
    "FAILED tests/test_amounts.py::test_half_cent_rounds_up\n=========== 1 failed, 5 passed in"
    " 0.02s ===========\n"
)


def agent_history(*turns) -> list:
    """A history: the task, then one (model call, user response) pair per (name, args, output)
    turn."""
    history = [
        types.Content(role="user", parts=[types.Part.from_text(text="Fix the invoicing tests.")])
    ]
    for name, args, output in turns:
        history.append(
            types.Content(role="model", parts=[types.Part.from_function_call(name=name, args=args)])
        )
        history.append(
            types.Content(
                role="user",
                parts=[types.Part.from_function_response(name=name, response={"output": output})],
            )
        )
    return history


@exercise("4.1", "truncate a tool output", reference="harness.truncation.truncate_output")
def check_truncate(fn) -> str:
    """The answer is held to: unchanged when it fits; else exactly int(max_chars x head_ratio)
    head characters, a marker line naming the omitted count, exactly the rest as tail; bad
    arguments refused before the fit test."""
    rid = "4.1"
    short = "3 passed in 0.01s"
    rule(
        call(rid, fn, short, 4000, 0.4) == short,
        rid,
        "a text that fits must come back unchanged.",
        "compare len(text) with max_chars first.",
    )
    exact = LOG[:4000]
    rule(
        call(rid, fn, exact, 4000, 0.4) == exact,
        rid,
        "a text of exactly max_chars characters must come back unchanged.",
        "it fits: only a text longer than max_chars is cut.",
    )
    out = call(rid, fn, LOG, 4000, 0.4)
    rule(
        isinstance(out, str) and out.startswith(LOG[:1600]) and LOG[1600:1700] not in out,
        rid,
        "with max_chars=4000 and head_ratio=0.4 the result must start with exactly the first 1,600"
        " characters.",
        "head = int(max_chars * head_ratio).",
    )
    rule(
        out.endswith(LOG[-2400:]) and LOG[-2500:-2400] not in out,
        rid,
        "the result must end with exactly the last 2,400 characters (max_chars - head).",
        "the tail is the text's last (max_chars - head) characters: that is where pytest writes its"
        " verdict.",
    )
    marker = out[1600 : len(out) - 2400]
    rule(
        names_count(marker, len(LOG) - 4000),
        rid,
        "the marker between head and tail must name the number of omitted characters"
        f" ({len(LOG) - 4000} here).",
        "omitted = len(text) - max_chars; put it in a line of its own between head and tail.",
    )
    just_over = call(rid, fn, LOG[:4001], 4000, 0.4)
    rule(
        just_over.startswith(LOG[:1600])
        and just_over.endswith(LOG[4001 - 2400 : 4001])
        and names_count(just_over[1600 : len(just_over) - 2400], 1),
        rid,
        "a text one character over max_chars must be cut too: head, a marker naming 1 omitted"
        " character, tail.",
        "only a text of at most max_chars characters comes back unchanged; one more and it is cut.",
    )
    head_only = _valid(rid, fn, LOG, 1000, 1.0)
    rule(
        head_only.startswith(LOG[:1000]) and LOG[-100:] not in head_only,
        rid,
        "head_ratio=1.0 must keep the first max_chars characters and no tail at all.",
        "with a tail of 0 characters, text[-0:] is the WHOLE text: handle an empty tail on its"
        " own.",
    )
    tail_only = _valid(rid, fn, LOG, 1000, 0.0)
    rule(
        tail_only.endswith(LOG[-1000:]) and LOG[:100] not in tail_only,
        rid,
        "head_ratio=0.0 must keep the last max_chars characters and no head at all.",
        "0 is a valid head_ratio: a head of 0 characters, the whole cap for the tail.",
    )
    must_refuse(
        rid,
        fn,
        (
            ((LOG, 0, 0.4), "max_chars=0"),
            ((LOG, 100, 1.5), "head_ratio=1.5"),
            ((LOG, 100, -0.1), "head_ratio=-0.1"),
        ),
        "max_chars must be at least 1 and head_ratio between 0 and 1.",
    )
    compare(
        rid,
        fn,
        truncate_output,
        _truncation_cases(),
        _truncation_differs,
        _smaller_truncation,
        _truncation_refused,
        raised=_refused_valid,
    )
    return "head int(max_chars x head_ratio), tail, marker line, bad arguments refused"


def _valid(rid, fn, *args):
    """`fn(*args)` on valid arguments: a ValueError there is a refusal of what the contract
    allows."""
    try:
        return call(rid, fn, *args)
    except ExerciseFailed as failure:
        rule(
            not isinstance(failure.__cause__, ValueError),
            rid,
            f"truncate_output(text, {args[1]}, {args[2]}) raised ValueError ({failure.__cause__}):"
            " those arguments are valid.",
            "head_ratio may be anything from 0 to 1, both ends included.",
            name="valid arguments are not refused",
        )
        raise


def _refused_valid(case, raised) -> Diff:
    if isinstance(raised.error, ValueError):
        return Diff(
            f"{case.note} raised ValueError ({raised.error}): those arguments are valid.",
            "max_chars may be any whole number from 1, head_ratio anything from 0 to 1, both ends"
            " included.",
            "valid arguments are not refused",
        )
    return Diff(
        f"{case.note}: your function raised {raised!r} where the rule gives an answer.",
        "run your function on that input in a cell of its own and read the traceback.",
        "the function runs without raising",
    )


_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_RATIOS = (0.0, 0.1, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.9, 0.99, 1.0)


def _tcase(text, max_chars, head_ratio) -> Case:
    return Case(
        text,
        max_chars,
        head_ratio,
        note=f"truncate_output({literal(text)}, {max_chars}, {head_ratio!r})",
    )


def _truncation_cases() -> list:
    """Every cap and ratio with texts one short of, equal to, one over and well over the cap, drawn
    texts around the caps; then bad arguments on texts that fit (a check made after the fit test
    misses them)."""
    cases = []
    for max_chars, ratio in product((1, 2, 3, 5, 7, 10, 13, 40), _RATIOS):
        for length in (max_chars - 1, max_chars, max_chars + 1, 2 * max_chars + 3, 50):
            cases.append(_tcase((_LETTERS * 4)[:length], max_chars, ratio))
    # and drawn texts around the caps: at grading, from a seed no table of these covers
    rng = generator()
    for _ in range(40):
        max_chars, ratio = rng.choice((1, 2, 3, 5, 7, 10, 13, 40)), rng.choice(_RATIOS)
        length = max(max_chars + rng.choice((-1, 0, 1, 3, 30)), 0)
        cases.append(_tcase("".join(rng.choice(_LETTERS) for _ in range(length)), max_chars, ratio))
    bad = (
        ("abc", 10, 1.5),
        ("abc", 10, -0.1),
        ("", 0, 0.4),
        ("abc", 0, 0.4),
        ("ab", -3, 0.5),
        ("a" * 20, 10, 2.0),
    )
    return cases + [_tcase(*args) for args in bad]


def _smaller_truncation(case) -> list:
    text, max_chars, ratio = case.args
    out = [_tcase("x" * len(text), max_chars, ratio)] if len(set(text)) > 1 else []
    out += [_tcase(text[:-1], max_chars, ratio)] if text else []
    out += [_tcase(text, max_chars - 1, ratio)] if max_chars > 1 else []
    return out + [_tcase(text, max_chars, r) for r in (0.5, 0.0, 1.0) if r != ratio]


def _truncation_refused(case, raised) -> Diff:
    text, max_chars, _ = case.args
    fits = len(text) <= max(max_chars, 0)
    return Diff(
        f"{case.note} must raise ValueError ({str(raised.error).rstrip('.')})"
        + (", even though the text fits" if fits else "")
        + ".",
        "check the arguments first, before anything else: a bad argument is wrong whatever the"
        " text.",
        "bad arguments raise ValueError, even for a text that fits",
    )


def _chars(n: int) -> str:
    return f"{n} character{'' if n == 1 else 's'}"


def _common(a: str, b: str) -> int:
    return len(os.path.commonprefix([a, b]))


def _truncation_differs(case, got, want):
    text, max_chars, ratio = case.args
    if want == text:
        if got != text:
            return Diff(
                f"for {case.note} the text fits ({len(text)} <= {max_chars} characters) and must"
                f" come back unchanged; you returned {literal(str(got))}.",
                "compare len(text) with max_chars first.",
                "a text that fits comes back unchanged",
            )
        return None
    if not isinstance(got, str):
        return Diff(
            f"for {case.note} return a str, got {type(got).__name__}.",
            "return the cut text.",
            "returns a str",
        )
    omitted = len(text) - max_chars
    if got == text or not names_count(got, omitted):
        return Diff(
            f"for {case.note} the result must hold a marker naming the {omitted} omitted"
            f" characters; you returned {literal(got, 90)}.",
            "a text longer than max_chars is cut: head, a marker line with the number omitted,"
            " tail.",
            "the marker names the omitted count",
        )
    head = int(max_chars * ratio)
    tail = max_chars - head
    got_head, got_tail = _common(got, text), _common(got[::-1], text[::-1])
    if got_head != head:
        return Diff(
            f"for {case.note} your head has {_chars(got_head)}; the rule keeps int({max_chars} x"
            f" {ratio}) = {head}.",
            "the head is int(max_chars * head_ratio) characters, as the exercise says: int() "
            "drops the fraction, which round() and math.ceil() do not.",
            "head = int(max_chars x head_ratio)",
        )
    if got_tail != tail:
        return Diff(
            f"for {case.note} your tail has {_chars(got_tail)}; the rule keeps max_chars - head = "
            f"{max_chars} - {head} = {tail}.",
            "the tail is what the cap leaves after the head.",
            "tail = max_chars - head",
        )
    middle = got[head : len(got) - tail]
    alone = (head == 0 or middle.startswith("\n")) and (tail == 0 or middle.endswith("\n"))
    if not alone or "\n" in middle.strip("\n"):
        return Diff(
            f"for {case.note} the marker must be one line of its own between head and tail; you"
            f" returned {literal(got, 90)}.",
            "put a newline between the head and the marker, and between the marker "
            "and the tail: glued to the text, the marker reads as part of the output.",
            "the marker is a line of its own",
        )
    return None


@exercise("4.2", "find the test verdict", reference="harness.truncation.extract_verdict")
def check_verdict(fn) -> str:
    """The answer is held to: the last line matching `\\d+ (passed|failed)`, whole and stripped
    (all-red, all-green and mixed verdicts), or None."""
    rid = "4.2"
    out = call(rid, fn, LOG + PYTEST_TAIL)
    verdict = "=========== 1 failed, 5 passed in 0.02s ==========="
    rule(
        out == verdict,
        rid,
        "on a pytest log, return the whole verdict line (stripped), e.g. '=== 1 failed, 5 passed in"
        " 0.02s ==='.",
        (
            "your function found no verdict in a log whose last line is one: pytest's summary line"
            " starts with '=', so look for the count anywhere in a line, not only at its start."
            if out is None
            else (
                "find the lines that report a count of tests, and return the line itself, not only"
                " the part that matched."
                if isinstance(out, str) and out and out in verdict
                else (
                    "the verdict is the last line that reports a count of tests; return that line,"
                    " stripped."
                )
            )
        ),
    )
    two = "tests/test_x.py: 2 passed\n  6 passed in 0.01s  \n"
    got = call(rid, fn, two)
    rule(
        got == "6 passed in 0.01s",
        rid,
        f"for extract_verdict({literal(two, 80)}) you returned"
        f" {literal(got, 60) if isinstance(got, str) else got}: when several lines match, return"
        " the LAST one, stripped of surrounding spaces.",
        "every line that counts tests is a verdict line, whatever it starts with; the summary line"
        " comes last: keep the last match and .strip() it.",
    )
    trailer = "=== 6 passed in 0.01s ===\nWrote coverage report.\n"
    rule(
        call(rid, fn, trailer) == "=== 6 passed in 0.01s ===",
        rid,
        "the verdict is the last MATCHING line, even when other lines follow it.",
        "filter the lines that match first, then take the last of those, not the output's last"
        " line.",
    )
    # `pytest && ruff check .` ends with ruff's line: the word without a count is not a verdict.
    linted = "=== 6 passed in 0.01s ===\nAll checks passed!\n"
    rule(
        call(rid, fn, linted) == "=== 6 passed in 0.01s ===",
        rid,
        "a verdict counts tests ('6 passed'): a line where 'passed' or 'failed' follows no number, "
        "like ruff's 'All checks passed!', is not a verdict.",
        "look at what stands just before 'passed' in a real verdict line, and make your pattern"
        " require it.",
    )
    rule(
        call(rid, fn, LOG) is None,
        rid,
        "an output with no verdict line must give None.",
        "return None when no line matches (a head-only truncation cuts the verdict off).",
    )
    rule(call(rid, fn, "") is None, rid, "an empty output must give None.", "no lines, no verdict.")
    compare(rid, fn, extract_verdict, _verdict_cases(), _verdict_differs, _smaller_verdict)
    return "last line that counts tests, stripped; None without one"


_VERDICTS = (
    "=== 6 failed in 0.12s ===",
    "=========== 1 failed, 5 passed in 0.02s ===========",
    "6 passed in 0.01s",
    "  2 passed, 1 warning in 0.30s  ",
    "=== 3 failed, 2 passed, 1 error in 1.05s ===",
    "1 failed",
    "==== 12 passed, 3 skipped in 4.2s ====",
    "FAILED tests/test_a.py::test_b - assert 2 == 3 (1 failed)",
)
_NOT_VERDICTS = (
    "collected 6 items",
    "All checks passed!",
    "tests/test_amounts.py ..F...",
    "",
    "   ",
    "test_x.py::test_y PASSED",
    "failed: see above",
    "passed",
    "ERROR: no tests ran",
    "INTERNALERROR> nothing passed",
    "Retry 2 of 3: the upload failed",
    "ERROR at setup of test_2: the fixture failed",
)


def _vcase(output) -> Case:
    return Case(output, note=f"extract_verdict({literal(output, 120)})")


def _verdict_cases() -> list:
    rng = generator()
    cases = [_vcase(line) for line in _VERDICTS + _NOT_VERDICTS]
    for _ in range(300):
        lines = [
            rng.choice(_VERDICTS if rng.random() < 0.4 else _NOT_VERDICTS)
            for _ in range(rng.randint(0, 5))
        ]
        cases.append(_vcase("\n".join(lines) + ("\n" if rng.random() < 0.5 else "")))
    return cases


def _smaller_verdict(case) -> list:
    lines = case.args[0].split("\n")
    return (
        [_vcase("\n".join(lines[:i] + lines[i + 1 :])) for i in range(len(lines))]
        if len(lines) > 1
        else []
    )


def _verdict_differs(case, got, want):
    if got == want:
        return None
    if want is None:
        hint = "when no line reports a number of tests passed or failed, return None."
    elif got is None:
        hint = (
            "a verdict may count failures only, passes only, or both: which of these lines does"
            " your pattern miss?"
        )
    else:
        hint = (
            "return the whole line (stripped), the LAST of the lines that report a number of tests."
        )
    return Diff(
        f"for {case.note} you returned {got!r}; the rule gives {want!r} (the last line matching "
        "\\d+ (passed|failed), stripped).",
        hint,
        "the last line matching \\d+ (passed|failed)",
    )


def _output(content) -> str | None:
    part = content.parts[0]
    return (
        (part.function_response.response or {}).get("output", "")
        if part.function_response
        else None
    )


@exercise("4.3", "mask old tool outputs", reference="harness.masking.mask_observations")
def check_masking(fn) -> str:
    """The answer is held to: which outputs are masked (not the last keep_last turns, not a live
    error, not one already masked), each masked output read as masked by the glass box and kept
    whole in `store`, parallel calls matched, the history unchanged."""
    rid = "4.3"
    readme = "# invoicing\n" + "Amounts round half-up to the cent. " * 40
    red = "collected 6 items\n=========== 1 failed, 5 passed in 0.02s ===========\n"
    turns = (
        ("read_file", {"path": "README.md"}, readme),  # outputs[2]
        # [4] live error
        ("read_file", {"path": "missing.py"}, "ERROR: missing.py does not exist."),
        ("run_command", {"command": "pytest"}, LOG + PYTEST_TAIL),  # [6] superseded run
        # [8] superseded
        (
            "edit_file",
            {"path": "invoicing/amounts.py", "old": "x", "new": "y"},
            "ERROR: old text not found in invoicing/amounts.py.",
        ),
        # [10]
        (
            "edit_file",
            {"path": "invoicing/amounts.py", "old": "a", "new": "b"},
            "Edited invoicing/amounts.py",
        ),
        ("run_command", {"command": "pytest"}, red),  # [12] live red run
        ("read_file", {"path": "invoicing/amounts.py"}, "import decimal\n" * 30),  # [14]
        ("read_file", {"path": "invoicing/discounts.py"}, "BULK = 10\n" * 30),  # [16] kept
        ("read_file", {"path": "tests/test_amounts.py"}, "def test_a(): pass\n" * 20),  # [18] kept
    )
    history = agent_history(*turns)
    original = [_output(c) for c in history]
    before = [c.model_dump() for c in history]
    store = {}
    new = call(rid, fn, history, store, 2)
    rule(
        [c.model_dump() for c in history] == before,
        rid,
        "the history passed in must not be changed.",
        "build a new list; make new Content/Part objects for what you mask.",
    )
    rule(
        isinstance(new, list) and [c.role for c in new] == [c.role for c in history],
        rid,
        "the new history must have the same messages, in the same roles.",
        "replace outputs, never drop messages.",
    )
    outputs = [_output(c) for c in new]
    rule(
        all(
            new[i].model_dump() == history[i].model_dump()
            for i in range(len(history))
            if i % 2 == 1
        ),
        rid,
        "function calls must stay as they are.",
        "mask only function responses.",
    )
    rule(
        outputs[-1] == original[-1] and outputs[-3] == original[-3],
        rid,
        "with keep_last=2 the outputs of the last two turns must stay word for word.",
        "count turns from the end by model messages; only outputs before those are masked.",
    )
    rule(
        outputs[4] == original[4],
        rid,
        "an error that is still the latest news about its file must stay visible.",
        "an 'ERROR:' output with no later output for the same tool and path is still being"
        " debugged.",
    )
    rule(
        outputs[12] == original[12],
        rid,
        "the latest test run, when its verdict reports failures, is an error still being debugged:"
        " it must stay visible.",
        "a red test run counts as an error too: read its verdict with your extract_verdict.",
    )
    rule(
        outputs[14] != original[14],
        rid,
        "with keep_last=2 the output of the third turn from the end must be masked.",
        "exactly keep_last turns are kept: count model messages from the end, and mask everything"
        " before them.",
    )
    rule(
        outputs[8] != original[8] and outputs[6] != original[6],
        rid,
        "an error followed by a later output of the same tool on the same path is no longer being"
        " debugged (here a failed edit_file of invoicing/amounts.py, then a successful one; a red"
        " test run, then another run): it must be masked.",
        "an error stays visible only while it is the LATEST output for its tool and path; compare"
        " positions.",
    )
    masked = outputs[2]
    rule(
        len(masked) < len(readme) / 4,
        rid,
        "an old, long output must be replaced by a short reference.",
        "replace the README's text with one line naming a reference.",
    )
    refs = [key for key in store if key in masked]
    rule(
        bool(refs) and store[refs[0]] == readme,
        rid,
        "the reference in the masked output must be a key of the store holding the full original"
        " text.",
        "store[ref] = output, and put ref in the replacement text.",
    )
    wider = call(rid, fn, history, {}, 3)
    rule(
        wider[14].model_dump() == history[14].model_dump(),
        rid,
        "with keep_last=3 the output of the third turn from the end must stay word for word.",
        "use the keep_last you are given: it says how many recent turns are never masked.",
    )
    compare(rid, fn, mask_observations, masking_cases(), masking_differs, smaller_masking)
    return "old outputs masked, recent and live errors kept, full text in the store"

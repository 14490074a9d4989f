"""Compare an answer with the reference on generated inputs, and name the smallest difference.

A check's named cases catch the mistakes we foresaw; `compare` catches the others. It runs the
student's function and the reference side by side on each generated input (from `generator()`, a
fixed seed: the same inputs on every run), and at the first difference it shrinks the input
(`smaller` proposes simpler inputs; one that still differs replaces it) before failing with the
rule the smallest case breaks, in the words of the check's `differ`:

    >>> from harness.checks import run_check
    >>> def differ(case, got, want):
    ...     return None if got == want else Diff(f"for double({case.args[0]}) you returned {got}", "twice the number")
    >>> def check_double(fn):  # start at 50..59; shrink by one while the difference remains
    ...     compare("99.9", fn, lambda n: 2 * n, [Case(n) for n in range(50, 60)], differ,
    ...             smaller=lambda case: [Case(case.args[0] - 1)] if case.args[0] > 0 else [])
    >>> from harness.checks import ExerciseFailed
    >>> try:
    ...     check_double(lambda n: 2 * n if n < 3 else n + 3)
    ... except ExerciseFailed as failure:
    ...     print(failure.rule)
    for double(4) you returned 7

Every input is also checked for changes: an answer that modifies its arguments (sorts the caller's
list, pops the caller's turns) fails, whatever it returns. Leaf of the checks: it knows no exercise.
"""

import contextlib
import copy
import random
import re
from dataclasses import dataclass
from typing import Callable

from pydantic import BaseModel

from harness.checks import call, rule, tried

SEED = 16  # the generators' seed: every run tries the same inputs
MAX_SHRINK_CALLS = (
    300  # calls of the answer spent shrinking one difference (keeps a check under a second)
)
# The grader checks twice: on SEED's inputs, then on inputs drawn from a seed of its own run that no
# student can know (`hidden_seed`), so an answer that is a table of the inputs seen at home fails.
_seed = {"hidden": None, "drawn": False}
# Exercise id -> the generated inputs its checks have compared in this process: docs.py states the
# range from it (README and INSTRUCTORS.md give the figures, tests/test_instructors_docs.py holds
# them).
COMPARED: dict[str, int] = {}


def generator() -> random.Random:
    _seed["drawn"] = True
    return random.Random(SEED if _seed["hidden"] is None else _seed["hidden"])


@contextlib.contextmanager
def hidden_seed(seed: int | None):
    """Within it, `generator()` draws from `seed`; `drew()` says whether a check asked for
    inputs."""
    before = dict(_seed)
    _seed.update(hidden=seed, drawn=False)
    try:
        yield
    finally:
        _seed.update(before)


def drew() -> bool:
    """Whether a check called `generator()` since `hidden_seed` was entered."""
    return _seed["drawn"]


_ATOMS = frozenset({type(None), str, int, float, bool, bytes})  # immutable: shared, not copied


def deep_copy(value, memo: dict):
    """`copy.deepcopy(value, memo)`, made faster for what cases hold: lists, tuples, dicts and the
    SDK's pydantic models (a history of `types.Content`) are rebuilt here, each model's fields
    copied straight into a new instance, where deepcopy goes through each model's `__deepcopy__`
    and dispatches on every field, most of them None. Anything else goes to `copy.deepcopy` with
    the same memo. Measured here (2026-12-04, least of 5 runs), check 4.3 on its reference: 102 ->
    78 ms of CPU."""
    if type(value) in _ATOMS:
        return value
    if id(value) in memo:
        return memo[id(value)]
    kind = type(value)
    if kind is list:
        twin = memo[id(value)] = []
        twin.extend(deep_copy(item, memo) for item in value)
    elif kind is dict:
        twin = memo[id(value)] = {}
        twin.update((key, deep_copy(item, memo)) for key, item in value.items())
    elif kind is tuple:
        twin = tuple(deep_copy(item, memo) for item in value)
    elif isinstance(value, BaseModel):
        twin = memo[id(value)] = kind.__new__(kind)
        fields = {key: deep_copy(item, memo) for key, item in value.__dict__.items()}
        object.__setattr__(twin, "__dict__", fields)
        object.__setattr__(twin, "__pydantic_fields_set__", set(value.__pydantic_fields_set__))
        object.__setattr__(twin, "__pydantic_extra__", deep_copy(value.__pydantic_extra__, memo))
        private = getattr(value, "__pydantic_private__", None)
        object.__setattr__(twin, "__pydantic_private__", deep_copy(private, memo))
    else:
        return copy.deepcopy(value, memo)
    return twin


class Case:
    """One input: positional `args` (and `kwargs`); `mutable` names the positions an answer may
    change (a store it fills), `note` shows the call (for failure messages). After a comparison,
    `reference_args` holds the reference's own copy of the arguments (what it filled in)."""

    def __init__(self, *args, mutable=(), note="", **kwargs):
        self.args, self.kwargs, self.mutable, self.note = args, kwargs, tuple(mutable), note
        self.reference_args = args

    def __repr__(self):
        return self.note or f"Case{self.args!r}"

    def copy(self) -> "Case":
        """The same case on fresh copies of its arguments (a generator's own attributes kept)."""
        memo = {}  # one for both: an object passed twice stays one object in the copy
        twin = Case(
            *deep_copy(self.args, memo),
            mutable=self.mutable,
            note=self.note,
            **deep_copy(self.kwargs, memo),
        )
        twin.__dict__.update({k: v for k, v in self.__dict__.items() if k not in twin.__dict__})
        return twin


@dataclass
class Diff:
    """A rule broken on one case: the message, a hint, and the rule's stable name."""

    broken: str
    hint: str
    name: str = ""


class Raised:
    """What a call raised instead of returning."""

    def __init__(self, error: BaseException):
        self.error = error

    def __repr__(self):
        return f"{type(self.error).__name__}({str(self.error)[:80]!r})"


def snapshot(value):
    """A comparable copy of an argument (pydantic models by their dump, sets sorted)."""
    if hasattr(value, "model_dump"):
        return ("model", type(value).__name__, value.model_dump())
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [snapshot(v) for v in value])
    if isinstance(value, (set, frozenset)):
        return (type(value).__name__, sorted(repr(v) for v in value))
    if isinstance(value, dict):
        return ("dict", {k: snapshot(v) for k, v in value.items()})
    if callable(value):
        return ("callable", id(value))
    return copy.deepcopy(value)


def _outcome(fn: Callable, case: Case, exercise_id: str):
    """What `fn` returns on `case`, or a Raised (NotImplementedError still means "not
    attempted")."""
    try:
        return fn(*case.args, **case.kwargs)
    except NotImplementedError:
        call(exercise_id, fn, *case.args, **case.kwargs)  # raises the "not attempted" failure
        raise
    except Exception as error:  # compared with what the reference does
        return Raised(error)


def literal(text: str, width: int = 60) -> str:
    """A short Python literal for a text: 'x' * 50 for a run of one character."""
    if len(text) > 3 and len(set(text)) == 1:
        return f"{text[0]!r} * {len(text)}"
    shown = repr(text)
    return shown if len(shown) <= width else shown[: width - 4] + "…" + shown[-3:]


def _raised_instead(case: Case, got: Raised) -> Diff:
    return Diff(
        f"{case.note}: your function raised {got!r} where the rule gives an answer.",
        "run your function on that input in a cell of its own and read the traceback.",
        "the function runs without raising",
    )


def difference(
    exercise_id: str,
    fn: Callable,
    reference: Callable,
    case: Case,
    differ: Callable,
    refused: Callable[[Case, Raised], Diff],
    raised: Callable[[Case, Raised], Diff] = _raised_instead,
) -> Diff | None:
    """The rule `fn` breaks on `case` (None if it agrees with the reference there)."""
    ref_case = case.copy()
    want = _outcome(reference, ref_case, exercise_id)
    if isinstance(want, Raised) and not isinstance(want.error, ValueError):
        return None  # not a valid input after all (a generator's or a shrink's slip): skip it
    mine = case.copy()
    before = [snapshot(a) for i, a in enumerate(mine.args) if i not in mine.mutable]
    got = _outcome(fn, mine, exercise_id)
    if [snapshot(a) for i, a in enumerate(mine.args) if i not in mine.mutable] != before:
        return Diff(
            f"{case.note or 'your function'}: your function changed the arguments it was given.",
            "work on a copy (list(x), sorted(x), a new Content): the caller reuses what it passed.",
            "the input is never changed",
        )
    if isinstance(want, Raised):
        if isinstance(got, Raised) and isinstance(got.error, ValueError):
            return None
        return refused(case, want)
    if isinstance(got, Raised):
        return raised(case, got)
    mine.reference_args = ref_case.args
    return differ(mine, got, want)


def compare(
    exercise_id: str,
    fn: Callable,
    reference: Callable,
    cases,
    differ: Callable,
    smaller: Callable[[Case], list] = lambda case: [],
    refused: Callable | None = None,
    name: str = "agrees with the rule on generated inputs",
    raised: Callable = _raised_instead,
) -> None:
    """Fail with the smallest case on which `fn` and `reference` differ (as `differ` words it).

    `differ(case, got, want)` returns a Diff or None; `case.reference_args` holds the reference's
    copy of the arguments (what it filled in, e.g. a store). `refused(case, raised)` words the
    failure when the reference raises ValueError and the answer does not; `raised(case, raised)`
    when the answer raises where the reference gives an answer.
    """
    refused = refused or (
        lambda case, raised: Diff(
            f"{case.note} must raise ValueError ({str(raised.error).rstrip('.')}).",
            "check the arguments first, before anything else.",
            "bad arguments raise ValueError",
        )
    )
    for case in cases:
        COMPARED[exercise_id] = COMPARED.get(exercise_id, 0) + 1
        found = difference(exercise_id, fn, reference, case, differ, refused, raised)
        if found:
            case, found = _shrink(
                exercise_id, fn, reference, case, found, differ, smaller, refused, raised
            )
            rule(False, exercise_id, found.broken, found.hint, name=found.name)
    tried(name, True)


def _shrink(exercise_id, fn, reference, case, found, differ, smaller, refused, raised):
    calls, progress = 0, True
    while progress and calls < MAX_SHRINK_CALLS:
        progress = False
        for candidate in smaller(case):
            calls += 1
            smaller_found = difference(
                exercise_id, fn, reference, candidate, differ, refused, raised
            )
            if smaller_found:
                case, found, progress = candidate, smaller_found, True
                break
            if calls >= MAX_SHRINK_CALLS:
                break
    return case, found


def _shown(value, width: int = 90) -> str:
    text = re.sub(r" at 0x[0-9a-f]+", "", " ".join(repr(value).split()))
    return text if len(text) <= width else text[: width - 1] + "…"


def agreeing(
    rule_words: str, hint: str, name: str, same: Callable = lambda got, want: got == want
) -> Callable:
    """A `differ` for answers that must equal the reference's (by `same`): names the case and
    both values."""

    def differ(case, got, want):
        if same(got, want):
            return None
        return Diff(
            f"for {case.note} you returned {_shown(got)}; the rule gives {_shown(want)}"
            f" ({rule_words}).",
            hint,
            name,
        )

    return differ

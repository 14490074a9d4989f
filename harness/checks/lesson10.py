"""Checks for lesson 10, partitioning: 10.1 `split_task` and 10.2 `merge_results`.

After the named cases each is compared with the reference on generated inputs
(`harness.checks.compare`): totals equal to the limit, a limit with a fraction (share x window
is not rounded), a sub-task larger than the limit, estimates of 0, no sub-tasks; partitions
that finished, did not, never reported, edit the same file with the same or different texts.
"""

from harness.checks import ExerciseFailed, call, exercise, rule, tried
from harness.checks.compare import Case, Diff, agreeing, compare, generator
from harness.partitioning import (
    MergeRefused,
    SubResult,
)
from harness.partitioning import (
    merge_results as reference_merge,
)
from harness.partitioning import (
    split_task as reference_split,
)


def _as_lists(value):
    """A split as lists of names (tuples are as good: the coordinator reads any sequence)."""
    try:
        return (
            [p if isinstance(p, str) else list(p) for p in value]
            if not isinstance(value, (str, dict))
            else value
        )
    except TypeError:
        return value


def _split(split, subtasks, window, share=None):
    args = (subtasks, window) if share is None else (subtasks, window, share)
    return _as_lists(call("10.1", split, *args))


@exercise("10.1", "split a task into partitions", reference="harness.partitioning.split_task")
def check_split(split):
    """The answer is held to: sub-tasks packed in order, a partition's total at or under share x
    window (not rounded), a new partition when the next would pass it, one over the limit alone, []
    for none.
    """
    fits = _split(split, [("stock", 300), ("grades", 300)], 1000)
    rule(
        isinstance(fits, list)
        and all(isinstance(p, list) and all(n in ("stock", "grades") for n in p) for p in fits),
        "10.1",
        "return a list of partitions, each a list of sub-task names; for two sub-tasks 'stock' and"
        f" 'grades' you returned {fits!r}.",
        _names_hint(fits),
        name="partitions are lists of names",
    )
    rule(
        fits == [["stock", "grades"]],
        "10.1",
        "two sub-tasks of 300 tokens with window=1000 (share 0.6: a limit of 600) should stay one"
        f" partition, [['stock', 'grades']]; got {fits!r}.",
        "A partition may reach the limit exactly: compare its total with share x window using <=.",
    )
    over = _split(split, [("stock", 300), ("grades", 300), ("thermo", 300)], 1000)
    rule(
        over == [["stock", "grades"], ["thermo"]],
        "10.1",
        "three sub-tasks of 300 tokens with window=1000 should make [['stock', 'grades'],"
        f" ['thermo']]; got {over!r}.",
        "When adding the next sub-task would take the current partition past the limit, start a new"
        " one.",
    )
    ordered = _split(split, [("a", 500), ("b", 100), ("c", 500), ("d", 100)], 1000)
    rule(
        ordered == [["a", "b"], ["c", "d"]],
        "10.1",
        "[('a', 500), ('b', 100), ('c', 500), ('d', 100)] with window=1000 should make [['a',"
        f" 'b'], ['c', 'd']]; got {ordered!r}.",
        "Keep the sub-tasks in the order given and fill the current partition only: never sort them"
        " or go back.",
    )
    alone = _split(split, [("big", 900), ("small", 100)], 1000)
    rule(
        alone == [["big"], ["small"]],
        "10.1",
        "a sub-task of 900 tokens (over the limit of 600) then one of 100 should make [['big'],"
        f" ['small']]; got {alone!r}.",
        "A sub-task over the limit still needs a sub-agent: give it a partition of its own, and"
        " start the next one after it.",
    )
    fraction = _split(split, [("a", 300), ("b", 301)], 1001)
    rule(
        fraction == [["a"], ["b"]],
        "10.1",
        "with window=1001 the limit is 600.6; sub-tasks of 300 and 301 (601 together) should make "
        f"[['a'], ['b']]; got {fraction!r}.",
        "Use share x window as it is: do not round it to a whole number of tokens.",
    )
    shared = _split(split, [("a", 300), ("b", 300)], 1000, 0.5)
    rule(
        shared == [["a"], ["b"]],
        "10.1",
        "with share=0.5 and window=1000 (a limit of 500), two sub-tasks of 300 should make [['a'],"
        f" ['b']]; got {shared!r}.",
        "The limit is share x window: use the share you are given.",
    )
    empty = _split(split, [], 1000)
    rule(
        empty == [],
        "10.1",
        f"no sub-tasks should make no partitions, []; got {empty!r}.",
        "Return an empty list when there is nothing to split.",
    )
    compare("10.1", split, reference_split, _split_cases(), _split_differs, _smaller_split)
    return "sub-tasks packed in order under share x window"


def _names_hint(got) -> str:
    """What a split's partitions hold instead of names."""
    parts = got if isinstance(got, list) else []
    if any(isinstance(p, str) for p in parts):
        return "a partition is a list of names (['stock', 'grades']), not one string."
    if any(isinstance(n, (tuple, list)) for p in parts if isinstance(p, list) for n in p):
        return "your partitions hold (name, estimate) pairs: the coordinator wants the names alone."
    return "return one list per sub-agent, each holding the names of its sub-tasks."


def _split_differs(case, got, want):
    got = _as_lists(got)
    if got == want:
        return None
    subtasks, window, share = case.args
    names = [name for name, _ in subtasks]
    flat = (
        [n for p in got for n in p]
        if isinstance(got, list) and all(isinstance(p, list) for p in got)
        else None
    )
    hint = (
        "your partitions leave out "
        + ", ".join(repr(n) for n in names if n not in flat)
        + ": every sub-task goes in a partition, an estimate of 0 or one over the limit too."
        if flat is not None and set(flat) < set(names)
        else (
            "your partitions hold the sub-tasks in another order than given."
            if flat is not None and sorted(flat) == sorted(names) and flat != names
            else (
                "add up each of your partitions' estimates and compare them with share x window:"
                " which partition breaks the rule, or which could have taken the next sub-task?"
            )
        )
    )
    return Diff(
        f"for {case.note} you returned {got!r}; the rule gives {want!r} (packed in order, each"
        " partition at or under share x window, a new one when the next would pass it).",
        hint,
        "packs in order under the limit",
    )


ESTIMATES = (0, 1, 100, 299, 300, 301, 599, 600, 601, 1000)


def _scase(subtasks, window, share) -> Case:
    return Case(
        subtasks, window, share, note=f"split_task({subtasks}, window={window}, share={share})"
    )


def _split_cases() -> list:
    rng = generator()
    cases = [_scase([], 1000, 0.6)]
    for _ in range(120):
        subtasks = [(f"t{i}", rng.choice(ESTIMATES)) for i in range(rng.randint(1, 6))]
        cases.append(
            _scase(
                subtasks,
                rng.choice((1000, 1001, 999, 2000, 1)),
                rng.choice((0.6, 0.5, 1.0, 0.3, 0.35)),
            )
        )
    return cases


def _smaller_split(case) -> list:
    subtasks, window, share = case.args
    return [_scase(subtasks[:i] + subtasks[i + 1 :], window, share) for i in range(len(subtasks))]


# --- 10.2 -----------------------------------------------------------------------------------------


def _done(names, edits, finished=True):
    return SubResult(
        tuple(names),
        finished,
        dict(edits),
        verdict="3 passed" if finished else "1 failed, 2 passed",
    )


def _refusal(
    merge,
    results,
    partitions,
    what: str,
    named: str = "",
    hint: str = "Validate every partition before merging anything, and raise MergeRefused when one fails.",
):
    """Fail unless `merge` raises MergeRefused on this input, with a message that names `named`
    (if given)."""
    try:
        got = call("10.2", merge, results, partitions)
    except ExerciseFailed as failure:
        cause = failure.__cause__
        rule(
            not isinstance(cause, ValueError) or isinstance(cause, MergeRefused),
            "10.2",
            f"{what}: raise MergeRefused, not {type(cause).__name__}: the coordinator catches"
            " MergeRefused only.",
            "MergeRefused comes from harness.partitioning (the notebook imports it); raise it with"
            " your message.",
        )
        if not isinstance(cause, MergeRefused):
            raise
        message = str(failure.__cause__)
        rule(
            not named or named in message,
            "10.2",
            f"{what}: your MergeRefused should say which partition or file is the "
            f"problem (name {named!r}); it says {message[:120]!r}.",
            "Put the partition (or the path) in the message: the coordinator shows it to the user.",
        )
        return
    rule(
        False,
        "10.2",
        f"{what}: the merge must be refused (raise MergeRefused); you returned {got!r}.",
        hint,
    )


@exercise(
    "10.2",
    "merge only finished, compatible partitions",
    reference="harness.partitioning.merge_results",
)
def check_merge(merge):
    """The answer is held to: every edit merged when all partitions finished; MergeRefused for a
    count that differs, a partition unfinished or missing (None), two texts for one path; same text
    kept once.
    """
    stock, grades = ["stock"], ["grades"]
    both = [_done(stock, {"stock/levels.py": "S"}), _done(grades, {"grades/marks.py": "G"})]
    merged = call("10.2", merge, both, [stock, grades])
    rule(
        merged == {"stock/levels.py": "S", "grades/marks.py": "G"},
        "10.2",
        "two finished partitions editing stock/levels.py and grades/marks.py should merge into"
        f" both edits; got {merged!r}.",
        "Return one dict, path -> text, holding every partition's edits.",
    )
    _refusal(
        merge,
        [_done(stock, {"stock/levels.py": "S"}), _done(grades, {}, finished=False)],
        [stock, grades],
        "when the second partition did not finish",
        "grades",
    )
    _refusal(
        merge,
        [None, _done(grades, {"grades/marks.py": "G"})],
        [stock, grades],
        "when the first partition never reported (None)",
        "stock",
    )
    _refusal(
        merge,
        [_done(stock, {"shared.py": "A"}), _done(grades, {"shared.py": "B"})],
        [stock, grades],
        "when two partitions edit shared.py with different texts",
        "shared.py",
    )
    counts = (
        "results[i] answers partitions[i]: a result missing, or one too many, leaves the two lists"
        " unmatched."
    )
    _refusal(
        merge,
        [_done(stock, {"stock/levels.py": "S"})],
        [stock, grades],
        "with two partitions but one result",
        hint=counts,
    )
    _refusal(
        merge,
        [*both, _done(["thermo"], {"thermo/convert.py": "T"})],
        [stock, grades],
        "with two partitions but three results (one no partition asked for)",
        hint=counts,
    )
    same = _merged(
        merge,
        [_done(stock, {"shared.py": "A"}), _done(grades, {"shared.py": "A"})],
        [stock, grades],
    )
    rule(
        same == {"shared.py": "A"},
        "10.2",
        "two partitions making the same edit to shared.py are compatible and should merge to "
        f"{{'shared.py': 'A'}}; got {same!r}.",
        "Only different texts for one path conflict: the same text is kept once.",
    )
    nothing = _merged(merge, [_done(stock, {})], [stock])
    rule(
        nothing == {},
        "10.2",
        f"a finished partition that edited nothing should merge to {{}}; got {nothing!r}.",
        (
            "your merge did not accept a partition that finished without editing a file (its tests"
            " passed as they were): which of your checks does it fail?"
            if "refusal" in str(nothing)
            else "A partition with no edits adds nothing, but it still must have finished."
        ),
    )
    compare(
        "10.2",
        merge,
        reference_merge,
        _merge_cases(),
        agreeing(
            "every edit of finished, compatible partitions",
            "merge the edits only after every partition passed validation.",
            "merges what the rule merges",
        ),
        _smaller_merge,
        refused=_refused,
        raised=_refused_wrongly,
    )
    tried("refuses with MergeRefused", True)
    return "refuses unfinished and conflicting partitions, merges the rest"


def _merged(merge, results, partitions):
    """What `merge` returns, or "a refusal (...)" when it raises MergeRefused (a wrong refusal is
    an answer the rules below name, not a crash)."""
    try:
        return call("10.2", merge, results, partitions)
    except ExerciseFailed as failure:
        if not isinstance(failure.__cause__, MergeRefused):
            raise
        return f"a refusal ({failure.__cause__})"


def _refused_wrongly(case, raised) -> Diff:
    if not isinstance(raised.error, MergeRefused):
        return Diff(
            f"{case.note}: your function raised {raised!r} where the rule gives an answer.",
            "run your function on that input in a cell of its own and read the traceback.",
            "the function runs without raising",
        )
    return Diff(
        f"for {case.note} you refused the merge ({str(raised.error)[:80]}); the rule merges it:"
        " every partition reported and finished, and no path has two different texts.",
        "compare what your refusal names with the partitions: which of the three reasons to refuse"
        " holds?",
        "merges what the rule merges",
    )


def _refused(case, raised) -> Diff:
    return Diff(
        f"for {case.note} the merge must be refused ({str(raised.error).split(';')[0]}); yours was"
        " not.",
        "check every partition (reported? finished? no other text for its paths?) before merging.",
        "refuses an unfinished or conflicting partition",
    )


def _mcase(results, partitions) -> Case:
    return Case(results, partitions, note=f"merge_results({results}, {partitions})")


PATHS, TEXTS = ("a.py", "b.py", "c.py"), ("x", "y")


def _merge_cases() -> list:
    rng = generator()
    cases = []
    for _ in range(150):
        partitions = [[f"p{i}"] for i in range(rng.randint(1, 4))]
        results = []
        for partition in partitions:
            if rng.random() < 0.06:
                results.append(None)
                continue
            paths = rng.sample(PATHS, rng.randint(0, 2))
            results.append(
                _done(
                    partition, {p: rng.choice(TEXTS) for p in paths}, finished=rng.random() < 0.85
                )
            )
        if rng.random() < 0.05:
            results = results[:-1]
        elif rng.random() < 0.05:  # a result no partition asked for
            results = results + [_done(["extra"], {rng.choice(PATHS): rng.choice(TEXTS)})]
        cases.append(_mcase(results, partitions))
    return cases


def _smaller_merge(case) -> list:
    results, partitions = case.args
    if len(results) != len(partitions) or len(partitions) < 2:
        return []
    return [
        _mcase(results[:i] + results[i + 1 :], partitions[:i] + partitions[i + 1 :])
        for i in range(len(results))
    ]

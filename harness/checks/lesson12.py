"""Checks for lesson 12, retrieval into the budget: 12.1 `reciprocal_rank_fusion` and 12.2
`fill_budget`.

After the named cases each is compared with the reference on generated inputs
(`harness.checks.compare`): 12.1 on zero to four rankings of up to six ids from a small pool (so ids
recur across rankings and scores tie), with k at 60, 0, 1 and 2; 12.2 on up to seven passages
whose sizes add up to exactly the budget, one more or one less, scores at exactly `min_score`, just
under and above it in no particular order, with the default counter or a word counter.
"""

from copy import deepcopy
from fractions import Fraction

from harness.checks import call, exercise, rule, tried
from harness.checks.compare import Case, Diff, agreeing, compare, generator
from harness.retrieval import (
    fill_budget as reference_fill,
)
from harness.retrieval import (
    reciprocal_rank_fusion as reference_fusion,
)
from harness.tokens import approx_tokens

FUSION_HINT = (
    "add 1 / (k + rank) for each list an id is in, rank counting from 1; then sort every id by "
    "its total, highest first, and equal totals by id."
)


def _fuse(fn, rankings, k=None):
    return _unchanged("12.1", fn, rankings) if k is None else _unchanged("12.1", fn, rankings, k)


@exercise("12.1", "reciprocal rank fusion", reference="harness.retrieval.reciprocal_rank_fusion")
def check_fusion(fn) -> str:
    """The answer is held to: every id of any list once, by the sum of 1/(k + rank) over the lists
    that hold it, ranks from 1, the k given (60 by default), highest first, ties by id ascending;
    a list of ids; the rankings unchanged."""
    rid = "12.1"
    seven = ["b", "a", "c", "g", "e", "f", "d"]
    single = _fuse(fn, [seven])
    rule(
        isinstance(single, list) and all(isinstance(doc, str) for doc in single),
        rid,
        f"return a list of ids (strings), best first; for [{seven!r}] you returned {single!r}.",
        "return the ids themselves, not (id, score) pairs or a dict.",
        name="returns a list of ids",
    )
    rule(
        sorted(single) == sorted(seven),
        rid,
        f"every id of any list comes back, once: for [{seven!r}] you returned {single!r}.",
        "return all the ids you scored, not only the first few.",
    )
    rule(
        single == seven,
        rid,
        f"one ranking keeps its order: [{seven!r}] gives it back as it is; you returned "
        f"{single!r}.",
        "the first of a list has the largest 1 / (k + rank).",
    )
    both = _fuse(fn, [["a", "b", "c"], ["c"]])
    rule(
        isinstance(both, list) and len(both) == len(set(both)),
        rid,
        "every id of any list comes back, once: "
        f"c is in both of [['a', 'b', 'c'], ['c']] and comes back once; you returned {both!r}.",
        "score each id in a dict keyed by the id, and return its keys.",
    )
    rule(
        both == ["c", "a", "b"],
        rid,
        "an id in two lists adds both terms: [['a', 'b', 'c'], ['c']] gives ['c', 'a', 'b'] (c: "
        "1/63 + 1/61, "
        f"a: 1/61); you returned {both!r}.",
        "sum the terms of every list that holds the id, then sort by the sum.",
    )
    union = _fuse(fn, [["b"], ["a"]])
    rule(
        sorted(union) == ["a", "b"],
        rid,
        "every id of any list comes back, once: [['b'], ['a']] holds a and "
        f"b; you returned {union!r}.",
        "collect the ids of all the lists, each once.",
    )
    own = _fuse(fn, [["a", "b", "c"], ["b", "d"]])
    rule(
        own == ["b", "a", "d", "c"],
        rid,
        "each list counts its own ranks from 1: in [['a', 'b', 'c'], ['b', 'd']], d is 2nd in its "
        f"list (1/62) and c 3rd in its own (1/63), which gives ['b', 'a', 'd', 'c']; you returned "
        f"{own!r}.",
        "an id's rank is its place in the list that holds it, counted again from 1 in each list.",
        name="each list counts its own ranks",
    )
    rule(
        union == ["a", "b"],
        rid,
        "equal totals go by id ascending: [['b'], ['a']] gives ['a', 'b'] (both "
        f"1/61); you returned {union!r}.",
        "sort on two keys: the total (highest first), then the id.",
        name="ties go by id ascending",
    )
    swapped = _fuse(fn, [["b", "a"], ["a", "b"]])
    rule(
        swapped == ["a", "b"],
        rid,
        "ties go by id ascending, not by where an id first appears: [['b', 'a'], ['a', 'b']] "
        "gives "
        f"['a', 'b'] (both 1/61 + 1/62); you returned {swapped!r}.",
        "sort on two keys: the total (highest first), then the id (A before Z).",
        name="ties go by id ascending",
    )
    lists = [["a", "b"], ["c", "d", "e", "f", "g", "b"]]
    default, one = _fuse(fn, lists), _fuse(fn, lists, 1)
    rule(
        (default, one)
        == (["b", "a", "c", "d", "e", "f", "g"], ["a", "c", "b", "d", "e", "f", "g"]),
        rid,
        f"use the k given (60 by default): for {lists!r}, b (ranks 2 and 6) comes first with k=60 "
        "and "
        f"third with k=1; you returned {default!r} and {one!r}.",
        "k sets how much a top rank outweighs being found by several lists: put the argument in "
        "the "
        "formula.",
    )
    from_one = _fuse(fn, [["a", "b"], ["c", "b"]], 1)
    rule(
        from_one == ["b", "a", "c"],
        rid,
        "ranks count from 1: with k=1, [['a', 'b'], ['c', 'b']] gives ['b', 'a', 'c'] (b: 1/3 + "
        "1/3, "
        f"a and c: 1/2); you returned {from_one!r}.",
        "the first of a list has rank 1, not 0: look at where your count of ranks starts.",
    )
    empty = _fuse(fn, [[], []])
    rule(
        empty == [] and _fuse(fn, []) == [],
        rid,
        f"no ids give []; for [[], []] you returned {empty!r}.",
        "start from an empty dict of scores and return its sorted keys.",
    )
    compare(
        rid,
        fn,
        reference_fusion,
        _fusion_cases(),
        agreeing(
            "the sum of 1/(k + rank), ranks from 1, highest first, ties by id",
            FUSION_HINT,
            "agrees with the rule on generated rankings",
        ),
        _smaller_fusion,
    )
    return "every id once, by the sum of 1/(k + rank), ties by id"


POOL = ("a", "b", "c", "d", "e", "f", "page-07", "page-12")
KS = (60, 60, 0, 1, 2)


def _fcase(rankings, k) -> Case:
    case = Case(rankings, k, note=f"reciprocal_rank_fusion({rankings!r}, k={k!r})")
    case.spec = (rankings, k)
    return case


def _exact(rankings, k) -> list[str]:
    """The rule in exact fractions (where a float sum could break a tie the wrong way, no case is
    made of it)."""
    score = {}
    for ranking in rankings:
        for rank, doc in enumerate(ranking, start=1):
            score[doc] = score.get(doc, 0) + 1 / (Fraction(k) + rank)
    return sorted(score, key=lambda doc: (-score[doc], doc))


def _fusion_cases() -> list:
    rng = generator()
    cases = []
    while len(cases) < 250:
        rankings = [rng.sample(POOL, rng.randint(0, 6)) for _ in range(rng.randint(0, 4))]
        k = rng.choice(KS)
        if _exact(rankings, k) == reference_fusion(rankings, k):
            cases.append(_fcase(rankings, k))
    return cases


def _smaller_fusion(case) -> list:
    rankings, k = case.spec
    out = [_fcase(rankings[:i] + rankings[i + 1 :], k) for i in range(len(rankings))]
    out += [
        _fcase(rankings[:i] + [r[:j] + r[j + 1 :]] + rankings[i + 1 :], k)
        for i, r in enumerate(rankings)
        for j in range(len(r))
    ]
    out += [_fcase(rankings, 60)] if k != 60 else []
    return [c for c in out if _exact(*c.spec) == reference_fusion(*c.spec)]


# --- 12.2 -----------------------------------------------------------------------------------------

FILL_HINT = (
    "walk the passages in the order given: skip one whose score is below min_score; keep one "
    "while total + count(text) <= budget, and when one does not fit, skip it and go on."
)


def words(text: str) -> int:
    """A counter for the checks: one token a word."""
    return len(text.split())


def _unchanged(exercise_id: str, fn, given, *rest, **kwargs):
    """Call the answer on a copy of `given`; fail if it changes that copy."""
    copy = deepcopy(given)
    got = call(exercise_id, fn, copy, *rest, **kwargs)
    rule(
        copy == given,
        exercise_id,
        f"your function changed the arguments it was given: {given!r} became {copy!r}.",
        "work on a copy, or only read: the caller reuses what it passed.",
        name="the input is never changed",
    )
    return got


def _fill(fn, passages, *args, **kwargs):
    got = _unchanged("12.2", fn, passages, *args, **kwargs)
    if isinstance(got, (tuple, list)) and len(got) == 2 and isinstance(got[0], (list, tuple)):
        return list(got[0]), got[1]
    rule(
        False,
        "12.2",
        f"return (ids, total): the kept ids in order and their total; you returned {got!r}.",
        "end with `return kept, total`.",
        name="returns (ids, total)",
    )


def _refuses(fn, args: tuple, kwargs: dict, what: str) -> None:
    try:
        got = fn(*args, **kwargs)
    except (TypeError, ValueError):
        tried("bad input raises TypeError or ValueError", True)
        return
    except NotImplementedError:
        call("12.2", fn, *args, **kwargs)
        raise
    except Exception as error:  # a crash further in, not a refusal at the entry
        rule(
            False,
            "12.2",
            f"{what} must be refused with TypeError or ValueError naming the argument, not "
            f"{type(error).__name__}: {error}.",
            "check the arguments first: check_fill_arguments(...) is there for it.",
            name="bad input raises TypeError or ValueError",
        )
    rule(
        False,
        "12.2",
        f"{what} must be refused with TypeError or ValueError naming the argument; you "
        f"returned {got!r}.",
        "check the arguments first, before the loop: check_fill_arguments(...) is there for it.",
        name="bad input raises TypeError or ValueError",
    )


@exercise("12.2", "fill the budget", reference="harness.retrieval.fill_budget")
def check_fill(fn) -> str:
    """The answer is held to: passages walked in the order given; a score below min_score skipped
    (at it, kept); a passage kept while total + count(text) <= budget, one that does not fit skipped
    and the walk going on; (kept ids in order, their total); count used as given (approx_tokens by
    default); bad input refused with TypeError or ValueError; the passages unchanged."""
    rid = "12.2"
    three = [
        ("a", "one two three", 0.9),
        ("b", "four five six seven", 0.8),
        ("c", "eight nine", 0.7),
    ]
    cases = [
        (
            ([("a", "x", 1.0), ("b", "y", 1.0)], 15, lambda text: 10),
            {},
            ["a"],
            (
                "count each text with the count you are given: with count=lambda text: 10 and"
                " budget 15 only 'a' fits"
            ),
            "call count(text), the argument, not a counter of your own.",
        ),
        (
            ([("low", "one", 0.2), ("high", "two", 0.9)], 10, words),
            {},
            ["low", "high"],
            (
                "keep the order given (the caller ranked them): scores 0.2 then 0.9 give ['low', "
                "'high']"
            ),
            "do not sort the passages: walk them as they come.",
        ),
        (
            (three[:2], 7, words),
            {},
            ["a", "b"],
            (
                "a passage that brings the total to exactly the budget fits: sizes 3 and 4 with "
                "budget 7 keep ['a', 'b']"
            ),
            "compare total + size with the budget using <=.",
        ),
        (
            (three, 5, words),
            {},
            ["a", "c"],
            (
                "a passage that does not fit is skipped and the walk goes on: sizes 3, 4, 2 with "
                "budget 5 keep ['a', 'c']"
            ),
            (
                "do not stop at the first passage that does not fit: a smaller one further on may "
                "still fit."
            ),
        ),
        (
            (
                [
                    ("a", "one", 0.05),
                    ("b", "two", 0.1),
                    ("c", "three", 0.6),
                    ("d", "four", 0.02),
                    ("e", "five", 0.3),
                ],
                100,
                words,
                0.1,
            ),
            {},
            ["b", "c", "e"],
            (
                "skip a passage scoring below min_score and go on; one scoring exactly min_score "
                "stays: scores 0.05, 0.1, "
                "0.6, 0.02, 0.3 with min_score=0.1 keep ['b', 'c', 'e']"
            ),
            (
                "skip only when score < min_score, and keep walking: the order given need not"
                " follow the score."
            ),
        ),
        (
            (
                [("a", "Zorblax-7 listens on port 4187.", 1.0)],
                approx_tokens("Zorblax-7 listens on port 4187."),
            ),
            {},
            ["a"],
            (
                "by default count is approx_tokens: 'Zorblax-7 listens on port 4187.' counts"
                f" {approx_tokens('Zorblax-7 listens on port 4187.')} tokens, not 31 characters, so"
                f" it fits a budget of {approx_tokens('Zorblax-7 listens on port 4187.')}"
            ),
            "use the count argument, whose default is approx_tokens; len() counts characters.",
        ),
        (
            ([], 10),
            {},
            [],
            "no passages keep nothing",
            "start from an empty list and a total of 0.",
        ),
    ]
    for args, kwargs, want, broken, hint in cases:
        kept, total = _fill(fn, *args, **kwargs)
        rule(kept == want, rid, f"{broken}; you kept {kept!r}.", hint)
        count = args[2] if len(args) > 2 else approx_tokens
        right = sum(count(text) for doc, text, _ in args[0] if doc in want)
        rule(
            total == right,
            rid,
            f"the total is what the kept passages count ({right} for {want!r} in: {broken}); "
            f"you returned {total!r}.",
            "add a passage's count to the total when you keep it, and only then.",
            name="the total is what the kept passages count",
        )
    for args, kwargs, what in (
        ((three, -1), {}, "a negative budget"),
        ((three, "3000"), {}, "a budget given as text"),
        (("page-1 page-2", 10), {}, "passages given as one string"),
        (([("a", "one two")], 10), {}, "a passage that is a pair, not an (id, text, score) triple"),
        (([("a", None, 0.5)], 10), {}, "a passage whose text is None"),
        ((three, 10), {"count": None}, "count=None"),
        ((three, 10), {"min_score": float("nan")}, "min_score=nan"),
    ):
        _refuses(fn, args, kwargs, what)
    compare(rid, fn, reference_fill, _fill_cases(), _fill_differs, _smaller_fill)
    return "passages walked in order, gated by min_score, kept while they fit"


SIZES = (0, 1, 2, 3, 5, 8)
SCORES = (0.0, 0.05, 0.1, 0.3, 0.9, -0.2)


def _text(size: int) -> str:
    return " ".join(["token"] * size)  # `size` words, 2 x size tokens by approx_tokens


def _pcase(sizes_scores, budget, min_score, counter) -> Case:
    passages = [(f"p{i}", _text(size), score) for i, (size, score) in enumerate(sizes_scores)]
    kwargs = {} if counter is None else {"count": counter}
    shown = "" if counter is None else ", count=words"
    case = Case(
        passages,
        budget,
        min_score=min_score,
        note=f"fill_budget({passages!r}, {budget}{shown}, min_score={min_score})",
        **kwargs,
    )
    case.spec = (sizes_scores, budget, min_score, counter)
    return case


def _fill_cases() -> list:
    rng = generator()
    cases = []
    for _ in range(250):
        sizes_scores = [(rng.choice(SIZES), rng.choice(SCORES)) for _ in range(rng.randint(0, 7))]
        counter = rng.choice((None, words))
        total = sum((counter or approx_tokens)(_text(size)) for size, _ in sizes_scores)
        budget = max(0, rng.choice((total, total - 1, total + 1, total // 2, total // 2 + 1, 0, 4)))
        cases.append(_pcase(sizes_scores, budget, rng.choice((0.0, 0.1, 0.3, -1.0)), counter))
    return cases


def _smaller_fill(case) -> list:
    sizes_scores, budget, min_score, counter = case.spec
    out = [
        _pcase(sizes_scores[:i] + sizes_scores[i + 1 :], budget, min_score, counter)
        for i in range(len(sizes_scores))
    ]
    out += [_pcase(sizes_scores, budget, 0.0, counter)] if min_score != 0.0 else []
    return out + ([_pcase(sizes_scores, budget, min_score, None)] if counter is not None else [])


def _fill_differs(case, got, want):
    if isinstance(got, (tuple, list)) and len(got) == 2 and isinstance(got[0], (list, tuple)):
        got = (list(got[0]), got[1])
    if got == want:
        return None
    if isinstance(got, tuple) and got[0] == want[0]:
        return Diff(
            f"for {case.note} you kept the right ids {want[0]!r} but returned the total "
            f"{got[1]!r}; "
            f"the kept passages count {want[1]}.",
            "add a passage's count only when you keep it.",
            "the total is what the kept passages count",
        )
    return Diff(
        f"for {case.note} you returned {got!r}; the rule gives {want!r}.",
        FILL_HINT,
        "agrees with the rule on generated passages",
    )

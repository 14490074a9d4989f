"""Each plausible wrong answer to 12.1 and 12.2 and the rule it must fail on; the reference and the
stub the lesson ships pass and are "not attempted"; other right answers pass too."""

import math
from fractions import Fraction

import pytest
from wrong_answer_cases import assert_fails_on_its_rule, case_ids

from harness.checks import run_check
from harness.retrieval import check_fill_arguments, fill_budget, reciprocal_rank_fusion
from harness.tokens import approx_tokens


def _scores(rankings, k, term):
    score = {}
    for ranking in rankings:
        for rank, doc in enumerate(ranking, start=1):
            score[doc] = score.get(doc, 0.0) + term(k, rank)
    return score


def _by_score_then_id(score):
    return sorted(score, key=lambda doc: (-score[doc], doc))


# --- 12.1 -----------------------------------------------------------------------------------------


def rank_from_zero(rankings, k=60):
    """counts ranks from 0"""
    return _by_score_then_id(_scores(rankings, k, lambda k, rank: 1 / (k + rank - 1)))


def k_ignored(rankings, k=60):
    """always uses k = 60, whatever k is given"""
    return _by_score_then_id(_scores(rankings, 60, lambda k, rank: 1 / (k + rank)))


def plain_reciprocal_rank(rankings, k=60):
    """scores 1 / rank, without k"""
    return _by_score_then_id(_scores(rankings, k, lambda k, rank: 1 / rank))


def ties_by_first_seen(rankings, k=60):
    """sorts by score only: equal scores stay in the order first seen"""
    score = _scores(rankings, k, lambda k, rank: 1 / (k + rank))
    return sorted(score, key=lambda doc: -score[doc])


def ties_by_id_descending(rankings, k=60):
    """breaks ties by id descending"""
    score = _scores(rankings, k, lambda k, rank: 1 / (k + rank))
    return sorted(score, key=lambda doc: (score[doc], doc), reverse=True)


def duplicates_kept(rankings, k=60):
    """returns an id once for each list that holds it"""
    score = _scores(rankings, k, lambda k, rank: 1 / (k + rank))
    return sorted(
        (doc for ranking in rankings for doc in ranking), key=lambda doc: (-score[doc], doc)
    )


def best_rank_only(rankings, k=60):
    """keeps an id's best term instead of adding them (max, not sum)"""
    score = {}
    for ranking in rankings:
        for rank, doc in enumerate(ranking, start=1):
            score[doc] = max(score.get(doc, 0.0), 1 / (k + rank))
    return _by_score_then_id(score)


def common_ids_only(rankings, k=60):
    """returns only the ids every list holds"""
    common = set.intersection(*map(set, rankings)) if rankings else set()
    return [doc for doc in reciprocal_rank_fusion(rankings, k) if doc in common]


def ranks_run_across_lists(rankings, k=60):
    """counts ranks across the lists joined end to end, not from 1 in each list"""
    joined = [doc for ranking in rankings for doc in ranking]
    score = {}
    for rank, doc in enumerate(joined, start=1):
        score[doc] = score.get(doc, 0.0) + 1 / (k + rank)
    return _by_score_then_id(score)


def with_scores(rankings, k=60):
    """returns (id, score) pairs"""
    score = _scores(rankings, k, lambda k, rank: 1 / (k + rank))
    return [(doc, score[doc]) for doc in _by_score_then_id(score)]


def sorts_the_callers_lists(rankings, k=60):
    """sorts each of the caller's rankings in place first"""
    result = reciprocal_rank_fusion(rankings, k)
    for ranking in rankings:
        ranking.sort()
    return result


def top_five_only(rankings, k=60):
    """cuts the fused list to five ids"""
    return reciprocal_rank_fusion(rankings, k)[:5]


def first_list_ids_only(rankings, k=60):
    """fuses the scores but returns only the first list's ids"""
    first = set(rankings[0]) if rankings else set()
    return [doc for doc in reciprocal_rank_fusion(rankings, k) if doc in first]


# --- 12.2 -----------------------------------------------------------------------------------------


def stops_at_the_first_misfit(passages, budget, count=approx_tokens, min_score=0.0):
    """stops at the first passage that does not fit"""
    passages = check_fill_arguments(passages, budget, count, min_score)
    kept, total = [], 0
    for doc, text, score in passages:
        if score < min_score:
            continue
        if total + count(text) > budget:
            break
        kept.append(doc)
        total += count(text)
    return kept, total


def _walk(passages, budget, count, min_score, fits, low):
    check_fill_arguments(passages, budget, count, min_score)
    kept, total = [], 0
    for doc, text, score in passages:
        if low(score, min_score):
            continue
        if fits(total + count(text), budget):
            kept.append(doc)
            total += count(text)
    return kept, total


def strictly_under_the_budget(passages, budget, count=approx_tokens, min_score=0.0):
    """keeps a passage only while the total stays strictly under the budget (< instead of <=)"""
    return _walk(passages, budget, count, min_score, lambda t, b: t < b, lambda s, m: s < m)


def drops_a_score_at_the_threshold(passages, budget, count=approx_tokens, min_score=0.0):
    """skips a passage whose score equals min_score (<= instead of <)"""
    return _walk(passages, budget, count, min_score, lambda t, b: t <= b, lambda s, m: s <= m)


def ignores_min_score(passages, budget, count=approx_tokens, min_score=0.0):
    """never skips a low score"""
    return _walk(passages, budget, count, min_score, lambda t, b: t <= b, lambda s, m: False)


def stops_at_the_first_low_score(passages, budget, count=approx_tokens, min_score=0.0):
    """stops at the first score below min_score, as if the order followed the score"""
    check_fill_arguments(passages, budget, count, min_score)
    head = []
    for passage in passages:
        if passage[2] < min_score:
            break
        head.append(passage)
    return fill_budget(head, budget, count, min_score)


def counts_characters(passages, budget, count=approx_tokens, min_score=0.0):
    """counts a text with len(), characters instead of tokens"""
    return fill_budget(passages, budget, len, min_score)


def ignores_count(passages, budget, count=approx_tokens, min_score=0.0):
    """always counts with approx_tokens, whatever count is given"""
    return fill_budget(passages, budget, approx_tokens, min_score)


def total_of_everything(passages, budget, count=approx_tokens, min_score=0.0):
    """returns the total of every passage walked, kept or not"""
    kept, _ = fill_budget(passages, budget, count, min_score)
    return kept, sum(count(text) for _, text, score in passages if score >= min_score)


def sorts_by_score(passages, budget, count=approx_tokens, min_score=0.0):
    """sorts the passages by score first"""
    check_fill_arguments(passages, budget, count, min_score)
    return fill_budget(sorted(passages, key=lambda p: -p[2]), budget, count, min_score)


def no_argument_checks(passages, budget, count=approx_tokens, min_score=0.0):
    """checks no argument: a negative budget just keeps nothing"""
    kept, total = [], 0
    for doc, text, score in passages:
        if score >= min_score and total + count(text) <= budget:
            kept.append(doc)
            total += count(text)
    return kept, total


def kept_ids_only(passages, budget, count=approx_tokens, min_score=0.0):
    """returns the kept ids without the total"""
    return fill_budget(passages, budget, count, min_score)[0]


def pops_the_callers_list(passages, budget, count=approx_tokens, min_score=0.0):
    """consumes the caller's list with pop(0)"""
    result = fill_budget(passages, budget, count, min_score)
    while passages:
        passages.pop(0)
    return result


def budget_left_instead(passages, budget, count=approx_tokens, min_score=0.0):
    """returns the tokens left in the budget instead of the total"""
    kept, total = fill_budget(passages, budget, count, min_score)
    return kept, budget - total


WRONG_ANSWERS = [
    ("12.1", rank_from_zero, "ranks count from 1"),
    ("12.1", k_ignored, "use the k given"),
    ("12.1", plain_reciprocal_rank, "use the k given"),
    ("12.1", ties_by_first_seen, "equal totals go by id ascending"),
    ("12.1", ties_by_id_descending, "equal totals go by id ascending"),
    ("12.1", duplicates_kept, "every id of any list comes back, once"),
    ("12.1", best_rank_only, "adds both terms"),
    ("12.1", common_ids_only, "adds both terms"),
    ("12.1", ranks_run_across_lists, "each list counts its own ranks"),
    ("12.1", with_scores, "return a list of ids"),
    ("12.1", sorts_the_callers_lists, "changed the arguments"),
    ("12.1", top_five_only, "every id of any list comes back"),
    ("12.1", first_list_ids_only, "every id of any list comes back"),
    ("12.2", stops_at_the_first_misfit, "skipped and the walk goes on"),
    ("12.2", strictly_under_the_budget, "exactly the budget fits"),
    ("12.2", drops_a_score_at_the_threshold, "exactly min_score stays"),
    ("12.2", ignores_min_score, "below min_score"),
    ("12.2", stops_at_the_first_low_score, "below min_score and go on"),
    ("12.2", counts_characters, "the count you are given"),
    ("12.2", ignores_count, "the count you are given"),
    ("12.2", total_of_everything, "the total is what the kept passages count"),
    ("12.2", sorts_by_score, "keep the order given"),
    ("12.2", no_argument_checks, "must be refused"),
    ("12.2", kept_ids_only, "return \\(ids, total\\)"),
    ("12.2", pops_the_callers_list, "changed the arguments"),
    ("12.2", budget_left_instead, "the total is what the kept passages count"),
]


@pytest.mark.parametrize(
    "exercise_id, wrong, broken_rule", WRONG_ANSWERS, ids=case_ids(WRONG_ANSWERS)
)
def test_each_wrong_answer_fails_on_the_rule_it_breaks(exercise_id, wrong, broken_rule):
    assert_fails_on_its_rule(exercise_id, wrong, broken_rule)


@pytest.mark.parametrize(
    "exercise_id, reference", [("12.1", reciprocal_rank_fusion), ("12.2", fill_budget)]
)
def test_the_reference_passes_and_the_stub_is_not_attempted(exercise_id, reference):
    assert run_check(exercise_id, reference).status == "passed"

    def stub(*args, **kwargs):
        raise NotImplementedError(f"Exercise {exercise_id}")

    assert run_check(exercise_id, stub).status == "not attempted"


def exact_fusion(rankings, k=60):
    score = {}
    for ranking in rankings:
        for rank, doc in enumerate(ranking, start=1):
            score[doc] = score.get(doc, 0) + Fraction(1, k + rank)
    return sorted(score, key=lambda doc: (-score[doc], doc))


def fsum_fusion(rankings, k=60):
    terms = {}
    for ranking in rankings:
        for rank, doc in enumerate(ranking):
            terms.setdefault(doc, []).append(1 / (k + rank + 1))
    return sorted(terms, key=lambda doc: (-math.fsum(terms[doc]), doc))


def tuples_and_ids_of_any_kind(passages, budget, count=approx_tokens, min_score=0.0):
    kept, total = fill_budget(passages, budget, count, min_score)
    return tuple(kept), total


def plain_checks(passages, budget, count=approx_tokens, min_score=0.0):
    if not isinstance(budget, int) or isinstance(budget, bool) or budget < 0:
        raise ValueError("budget must be a whole number of tokens, at least 0")
    if not callable(count) or min_score != min_score or isinstance(passages, str):
        raise TypeError("count must be a function, min_score a number, passages a list")
    for passage in passages:
        if len(passage) != 3 or not isinstance(passage[1], str):
            raise TypeError("each passage is (id, text, score)")
    return no_argument_checks(passages, budget, count, min_score)


@pytest.mark.parametrize(
    "exercise_id, right",
    [
        ("12.1", exact_fusion),
        ("12.1", fsum_fusion),
        ("12.2", tuples_and_ids_of_any_kind),
        ("12.2", plain_checks),
    ],
)
def test_other_right_answers_pass(exercise_id, right):
    assert run_check(exercise_id, right).status == "passed", run_check(exercise_id, right).line()


@pytest.mark.parametrize(
    "bad, named",
    [
        (dict(passages="a b", budget=10), "passages"),
        (dict(passages=[("a", "x")], budget=10), "passages[0]"),
        (dict(passages=[], budget=-1), "budget"),
        (dict(passages=[], budget=10, count=3), "count"),
        (dict(passages=[("a", "x", "high")], budget=10), "passages[0] score"),
        (dict(passages=[], budget=10, min_score=math.inf), "min_score"),
    ],
)
def test_the_reference_names_the_argument_that_is_wrong(bad, named):
    with pytest.raises(
        (TypeError, ValueError), match=named.replace("[", "\\[").replace("]", "\\]")
    ):
        fill_budget(**bad)


def test_fusion_names_a_ranking_that_holds_an_id_twice():
    with pytest.raises(ValueError, match=r"rankings\[1\] holds 'b' twice"):
        reciprocal_rank_fusion([["a"], ["b", "c", "b"]])

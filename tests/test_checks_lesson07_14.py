"""Checks 7.1-14.1 fail on plausible wrong answers (test_checks_framework runs every check on its
reference and on a stub; test_wrong_answers_07_14 names the rule each wrong answer must break)."""

import re

import pytest

from harness import billing
from harness.checks import ExerciseFailed, check


def _rates(price):
    return (price["input"], price["cached_input"], price["output"])


def bill_without_subtracting_cache(usage, price):
    i, c, o = _rates(price)
    return (
        sum(
            (u.prompt_token_count or 0) * i
            + (u.cached_content_token_count or 0) * c
            + ((u.candidates_token_count or 0) + (u.thoughts_token_count or 0)) * o
            for u in billing.usages_of(usage)
        )
        / 1e6
    )


def bill_ignoring_thoughts(usage, price):
    return (
        billing.bill(usage, price)
        - sum((u.thoughts_token_count or 0) for u in billing.usages_of(usage))
        * price["output"]
        / 1e6
    )


def bill_per_token(usage, price):
    return billing.bill(usage, price) * 1e6


def bill_dicts_only(usage, price):
    return billing.bill(usage, dict(price))


def bill_one_call_only(usage, price):
    return billing.bill(billing.usages_of(usage)[0], price)


@pytest.mark.parametrize(
    "wrong",
    [
        bill_without_subtracting_cache,
        bill_ignoring_thoughts,
        bill_per_token,
        bill_dicts_only,
        bill_one_call_only,
    ],
)
def test_7_1_rejects_plausible_wrong_bills(wrong):
    with pytest.raises(ExerciseFailed):
        check("7.1", wrong)


def clipped_at_zero(a, b, price):
    crossing = billing.break_even_cached_price(a, b, price)
    return None if crossing is None else max(crossing, 0.0)


def zero_for_parallel(a, b, price):
    return billing.break_even_cached_price(a, b, price) or 0.0


def forgets_output(a, b, price):
    return billing.break_even_cached_price(a, b, {**price, "output": 0.0})


def one_sided(a, b, price):
    return (
        abs(billing.break_even_cached_price(a, b, price) or 0)
        if billing.split_tokens(a)[1] > billing.split_tokens(b)[1]
        else -1.0
    )


@pytest.mark.parametrize("wrong", [clipped_at_zero, zero_for_parallel, forgets_output, one_sided])
def test_7_2_rejects_plausible_wrong_prices(wrong):
    with pytest.raises(ExerciseFailed):
        check("7.2", wrong)


def test_7_2_clipping_fails_on_the_sign_rule():
    with pytest.raises(ExerciseFailed, match="negative"):
        check("7.2", clipped_at_zero)


@pytest.mark.parametrize(
    "wrong",
    [
        lambda answer, points: all(p in answer for p in points),  # case-sensitive
        # whitespace-sensitive
        lambda answer, points: all(p.lower() in answer.lower() for p in points),
        # any, not all
        lambda answer, points: any(p.lower() in " ".join(answer.lower().split()) for p in points),
        # word by word
        lambda answer, points: all(
            w in answer.lower().split() for p in points for w in p.lower().split()
        ),
    ],
)
def test_8_1_rejects_plausible_wrong_graders(wrong):
    with pytest.raises(ExerciseFailed):
        check("8.1", wrong)


def test_8_1_a_word_by_word_grader_fails_on_the_phrase_rule():
    def word_by_word(answer, points):
        words = set(re.findall(r"\w+", answer.lower()))
        return all(w in words for p in points for w in re.findall(r"\w+", p.lower()))

    with pytest.raises(ExerciseFailed, match="not together"):
        check("8.1", word_by_word)


@pytest.mark.parametrize(
    "wrong",
    [
        lambda run: run.compaction_count() > 0,  # ignores when it fired
        lambda run: any(
            b.compactions
            for b in run.bundles[: next((i for i, b in enumerate(run.bundles) if b.probe), 0)]
        ),
        # after the probe counts too
        lambda run: any(b.compactions for b in run.bundles if not b.probe),
    ],
)
def test_8_2_rejects_plausible_wrong_filters(wrong):
    with pytest.raises(ExerciseFailed):
        check("8.2", wrong)


def test_9_1_rejects_something_that_is_not_a_strategy():
    with pytest.raises(ExerciseFailed, match="Strategy"):
        check("14.1", lambda: {"compaction": True})

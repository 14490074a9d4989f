"""Each claim lesson 07's text makes about its own outputs, checked against those outputs (the
pattern of test_lesson_claims.py): the sentence must still be in the lesson, and what it says (a
ratio, a bound, a direction) must hold for the figures the lesson's cells print."""

import re

import pytest
from lesson_outputs import executed, printed_by
from test_lesson_claims import claim

from harness.billing import bill as harness_bill
from harness.billing import cache_hit_rate
from harness.models import model_row

LESSON = "07"
MINIMUM = 4_096


@pytest.fixture(scope="module")
def names():
    return executed(LESSON)


def test_thinking_bills_at_the_output_rate_the_dearest_and_the_cell_says_how_much(names):
    claim(
        LESSON,
        "**output** rate, the dearest of the three (the cell's second line says how many times the "
        "input and cached rates it is)",
    )
    price = names["price"]
    assert price.output > price.input > price.cached_input
    second = printed_by(names, LESSON, "thinking_config=").splitlines()[1]
    assert (
        second
        == f"output rate {price.output} $/M: {price.output / price.input:g} times the input rate, "
        f"{price.output / price.cached_input:g} times the cached rate"
    ), second


def test_the_compacting_strategies_pass_the_threshold_but_stay_under_the_cache_minimum(names):
    claim(
        LESSON,
        "summarise once a prompt passes 0.7 x their budget (0.7 x 4,000 = 2,800 tokens; 1,400 "
        "for the aggressive one), so their prompts stay under the minimum (the `largest` column), "
        "and none of "
        "their calls is ever cached",
    )
    assert model_row(names["MODEL"]).implicit_cache_min == MINIMUM
    for name, threshold in (
        ("compaction at threshold", 2_800),
        ("aggressive compaction", 1_400),
        ("prefix-preserving summary", 2_800),
    ):
        run = names["runs"][name]
        largest = max(b.prompt_tokens for b in run.bundles)
        assert threshold < largest < MINIMUM and not any(b.cached_tokens for b in run.bundles), (
            name,
            largest,
        )


def test_on_the_tutor_session_the_directions_agree_and_capping_saves_far_less(names):
    claim(LESSON, "say how many go the article's way")
    claim(
        LESSON,
        "The directions agree; the sizes do not. Capping saves far less here than the article's "
        "38% "
        "(the first line)",
    )
    printed = printed_by(names, LESSON, "capping tool outputs:").splitlines()
    capping = float(re.search(r"([+-]\d+)% cost", printed[0]).group(1))
    assert printed[-1] == "4 of 4 go the way the tutor article reports"
    assert -38 / 5 < capping < 0
    full, capped = (
        cache_hit_rate(names["runs"][n].usages()) for n in ("full history", "capped outputs")
    )
    assert capped < full  # "where the uncapped one is already cached (the second line)"


def test_on_the_invoicing_task_capping_comes_out_the_other_way(names):
    claim(
        LESSON,
        "Here capping comes out the other way from the article (the last line): the capped run's "
        "prompts never reach the 4,096-token minimum",
    )
    claim(
        LESSON,
        "while the full history passes the minimum as soon as the first pytest log enters it",
    )
    runs = names["task_runs"]
    assert names["capping_change"] > 0
    capped, full = runs["capped outputs"], runs["full history"]
    assert max(t.prompt_tokens for t in capped.turns) < MINIMUM and capped.cached_tokens == 0
    first_log = next(i for i, t in enumerate(full.turns) if t.tool == "run_command")
    assert full.turns[first_log + 1].prompt_tokens > MINIMUM
    assert all(t.cached_tokens > 0 for t in full.turns[first_log + 2 :])


def test_a_summary_leaves_the_next_call_almost_nothing_of_a_cache_it_had(names):
    """The section shows a rewrite breaking a cache: the call before the compaction was mostly
    cached, the calls after it pay the full rate while they stay under the minimum."""
    claim(
        LESSON,
        "Under the 4,000-token budget of the table above no prompt reaches the cache minimum",
    )
    claim(
        LESSON,
        "it matches almost nothing of the previous one, and the prompts pay the full rate until "
        "the "
        "history grows past the minimum again",
    )
    lines = printed_by(names, LESSON, "<- compaction folded").splitlines()
    shares = [int(re.search(r"cached +(\d+)%", line).group(1)) for line in lines[:-1]]
    after = [i for i, line in enumerate(lines) if "<- compaction" in line]
    assert after
    for i in after:
        before = next(j for j in range(i - 1, -1, -1) if " summary " not in lines[j])
        assert shares[before] > 50 and shares[i] < 10, (lines[before], lines[i])
    calls = [b for b in names["roomy"]["compaction at threshold"].bundles if b.kind == "turn"]
    cut = next(i for i, b in enumerate(calls) if b.compactions)
    assert all(b.cached_tokens == 0 for b in calls[cut:] if b.prompt_tokens < MINIMUM)
    assert re.fullmatch(
        r"the call before the compaction: 9\d% cached; the \d+ calls from it on: 0%", lines[-1]
    )


def test_the_prefix_preserving_call_costs_more_without_a_cache_and_less_with_one(names):
    claim(
        LESSON,
        "the prefix-preserving call sends the whole history at the full rate and costs more than "
        "the "
        "plain one (the third line)",
    )
    claim(
        LESSON,
        "there its call is served from the cache, and summarising costs less (the last line), the "
        "direction the tutor article reports",
    )
    price, runs, roomy = names["price"], names["runs"], names["roomy"]

    def summarising(run):
        return harness_bill(run.usages(kind="summary"), price)

    assert summarising(runs["prefix-preserving summary"]) > summarising(
        runs["compaction at threshold"]
    )
    assert cache_hit_rate(roomy["prefix-preserving summary"].usages(kind="summary")) > 0.9
    assert summarising(roomy["prefix-preserving summary"]) < summarising(
        roomy["compaction at threshold"]
    )
    assert (
        printed_by(names, LESSON, "roomy_saving = ")
        .splitlines()[-1]
        .startswith("budget 10,000: summarising cost -")
    )


def test_the_panel_bills_with_the_students_bill_and_says_whose(names):
    claim(LESSON, "From here on the lesson bills with **your** `bill`")
    claim(LESSON, "billed by your `bill`")
    from harness.widgets.lesson07 import cost_panel

    def doubled(usage, price):
        return 2 * harness_bill(usage, price)

    runs, price = names["runs"], names["price"]
    plain = cost_panel(runs, price).children[2].value
    mine = cost_panel(runs, price, bill=doubled).children[2].value
    first = float(re.search(r"\$(\d+\.\d+)", plain).group(1))
    assert float(re.search(r"\$(\d+\.\d+)", mine).group(1)) == pytest.approx(2 * first, rel=1e-3)
    assert "billed with the harness's bill" in plain and "billed with your bill" in mine

"""Each claim lesson 07's text makes about its own outputs, checked against those outputs (the
pattern of test_lesson_claims.py): the sentence must still be in the lesson, and what it says (a
ratio, a bound, a direction) must hold for the figures the lesson's cells print."""
import re

import pytest

from harness.billing import bill as harness_bill
from lesson_outputs import executed, printed_by
from test_lesson_claims import claim

LESSON = "07"


@pytest.fixture(scope="module")
def names():
    return executed(LESSON)


def test_thinking_bills_at_the_output_rate_which_is_ten_times_the_cached_rate(names):
    claim(LESSON, "**output** rate, which is ten times the cached rate here")
    price = names["price"]
    assert price.output / price.cached_input == 10, (price.output, price.cached_input)


def test_the_compacting_strategies_keep_every_prompt_under_2800_tokens(names):
    claim(LESSON, "The compacting strategies keep every prompt under 0.7 x 4,000 = 2,800 tokens")
    for name in ("compaction at threshold", "aggressive compaction"):
        largest = max(b.prompt_tokens for b in names["runs"][name].bundles)
        assert largest < 2_800, (name, largest)


def test_a_summary_leaves_the_next_call_almost_nothing_of_a_cache_it_had(names):
    """The section shows a rewrite breaking a cache: the call before each compaction was mostly
    cached, the call after it matches almost nothing."""
    claim(LESSON, "so the next call matches almost nothing of the previous one")
    lines = printed_by(names, LESSON, "<- compaction folded").splitlines()
    shares = [int(re.search(r"cached +(\d+)%", line).group(1)) for line in lines]
    after = [i for i, line in enumerate(lines) if "<- compaction" in line]
    assert after
    for i in after:
        before = next(j for j in range(i - 1, -1, -1) if " summary " not in lines[j])
        assert shares[before] > 50 and shares[i] < 10, (lines[before], lines[i])


def test_one_tutor_comparison_comes_out_the_other_way(names):
    claim(LESSON, "including one that comes out the other way here")
    printed = printed_by(names, LESSON, "capping tool outputs:")
    # Each line: the measured change, then the article's; "2x the cost" is +100%.
    measured = [float(m) for m in re.findall(r":\s+([+-]\d+)% cost", printed)]
    hit_before, hit_after = (float(x) for x in re.findall(r"(\d+\.\d)%", printed.splitlines()[1])[:2])
    reported = [-38, +32, +100]
    directions = [m * r > 0 for m, r in zip(measured, reported)] + [hit_after < hit_before]
    assert len(measured) == 3 and not all(directions), printed


def test_the_panel_bills_with_the_students_bill(names):
    claim(LESSON, "From here on the lesson bills with **your** `bill`")
    from harness.widgets.lesson07 import cost_panel

    def doubled(usage, price):
        return 2 * harness_bill(usage, price)

    runs, price = names["runs"], names["price"]
    plain = cost_panel(runs, price).children[2].value
    mine = cost_panel(runs, price, bill=doubled).children[2].value
    first = float(re.search(r"\$(\d+\.\d+)", plain).group(1))
    assert float(re.search(r"\$(\d+\.\d+)", mine).group(1)) == pytest.approx(2 * first, rel=1e-3)

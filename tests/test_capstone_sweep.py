"""Exercise 14.1 needs its technique: without compaction no configuration meets the target.

Without compaction the history only grows, whatever is done to the tool outputs, so the sweep runs
the caps from 1 character to more than a whole search result (2,000-2,300 characters), the head
shares from all tail to all head, both truncation modes and the knobs that change nothing else
(a timestamp, a session cap that stops early). Every one is over the window or misses a fact;
compaction configurations, including the reference, meet it.
"""

import itertools

import pytest

from harness.capstone import (
    OPENING,
    WINDOW,
    full_history,
    measure,
    opening_config,
    reference_config,
    verdict,
)
from harness.probes import STRATEGIES, Strategy, with_knobs

CAPS = (1, 100, 400, 1_200, 2_400)
# (mode, head share): head_only ignores the share (it keeps the head only).
SHARES = (
    ("head_only", 0.4),
    ("head_and_tail", 0.0),
    ("head_and_tail", 0.4),
    ("head_and_tail", 0.75),
)


def missed(strategy) -> list[str]:
    return [target for target, met, _ in verdict(measure(strategy), full_history()) if not met]


@pytest.mark.parametrize("cap, mode_share", list(itertools.product(CAPS, SHARES)))
def test_no_cap_head_share_or_mode_fits_the_window_without_compaction(cap, mode_share):
    mode, share = mode_share
    strategy = Strategy(
        "capped", truncate=True, tool_output_max_chars=cap, truncation_mode=mode, head_ratio=share
    )
    assert measure(strategy)["largest request"] > WINDOW


@pytest.mark.parametrize(
    "knobs",
    [
        dict(truncate=False),
        dict(timestamp_in_system=True, tool_output_max_chars=1),
        dict(tool_output_max_chars=1, session_token_cap=10_000),
        dict(tool_output_max_chars=1, session_token_cap=25_000),
    ],
)
def test_other_knobs_without_compaction_miss_the_target(knobs):
    # a session cap stops before a probe: recall missed
    assert missed(Strategy("other", **{"truncate": True} | knobs))


def test_compaction_meets_the_target_and_the_shipped_strategies_do_not():
    assert missed(reference_config()) == []
    # there are others
    assert missed(with_knobs(reference_config(), tool_output_max_chars=600)) == []
    # copying one of them is not an answer
    assert all(missed(strategy) for strategy in STRATEGIES.values())


def test_the_panel_opens_on_a_configuration_that_misses_the_target():
    def not_written():
        raise NotImplementedError("Exercise 14.1")

    def misspelt():
        return with_knobs(STRATEGIES["compaction at threshold"], context_budjet=1_500)

    for my_config in (not_written, misspelt, lambda: {"compaction": True}):
        strategy, note = opening_config(my_config)
        assert strategy == STRATEGIES[OPENING] and note and missed(strategy)
    assert "context_budjet" in opening_config(misspelt)[1]
    assert opening_config(reference_config) == (reference_config(), "")


def test_help_strategy_describes_every_knob():
    from dataclasses import fields

    assert [
        f.name for f in fields(Strategy) if f.name != "name" and f.name not in Strategy.__doc__
    ] == []

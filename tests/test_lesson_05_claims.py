"""Each claim lesson 05's text makes about its panel's runs, checked against those runs (the
pattern of test_lesson_claims.py)."""

from test_lesson_claims import claim

from harness.agent import AgentConfig, run_agent
from harness.widgets.lesson05 import status_of


def test_at_budget_4000_the_run_finishes_with_tests_failing_after_three_compactions_in_a_row():
    claim("05", "Slide the budget to 4,000: the run finishes with tests still failing")
    claim(
        "05",
        "so it compacts three times running; each new summary replaces the last and is written "
        "from the "
        "two messages just folded, so the one left records neither the fix nor the files read",
    )
    report = run_agent(AgentConfig(context_budget=4000, compact_ratio=0.7, keep_recent_turns=3))
    assert report.status == "finished" and "failed" in report.last_verdict
    assert "task not done: tests still fail" in status_of(report)
    turns = [turn for turn, _ in report.compactions]
    assert len(turns) == 3 and turns == list(range(turns[0], turns[0] + 3))
    assert [folded for _, folded in report.compactions][1:] == [2, 2]
    head = report.history[0].parts[1].text
    assert "**Changes made:** none" in head and "**Files read:** none" in head and report.edited


def test_at_the_panel_s_opening_budget_the_task_is_done():
    report = run_agent(AgentConfig(context_budget=5000, compact_ratio=0.7, keep_recent_turns=3))
    assert "task done: the tests pass" in status_of(report)

"""The agent loop on the glass box: a full run, compaction, truncation modes, the caps, the
report."""

import pytest

from harness.agent import AgentConfig, RunReport, run_agent
from harness.billing import bill, price_for


@pytest.fixture(scope="module")
def full():
    return run_agent(AgentConfig())


def test_a_full_run_fixes_the_task_in_about_thirteen_turns(full):
    assert full.status == "finished" and 10 <= len(full.turns) <= 14
    assert full.last_verdict.startswith("6 passed")
    assert full.edited == ["invoicing/amounts.py", "invoicing/discounts.py"]


def test_the_report_records_tokens_tools_and_cost_per_turn(full):
    first = full.turns[0]
    assert first.tool == "list_files" and first.prompt_tokens > 0 and first.usage is not None
    assert full.input_tokens == sum(t.prompt_tokens for t in full.turns)
    assert full.cost == pytest.approx(bill(full.usages(), price_for()))
    assert "edit_file(invoicing/amounts.py)" in full.table()
    assert repr(full).startswith("RunReport(finished · ")


def test_a_small_budget_compacts_when_the_prompt_passes_ratio_times_budget():
    report = run_agent(AgentConfig(context_budget=5000, keep_recent_turns=3))
    turn, folded = report.compactions[0]
    record = report.turns[turn - 1]
    assert record.prompt_tokens > 3500 and folded > 0 and record.summary_usage is not None
    assert all(t.prompt_tokens <= 3500 for t in report.turns[: turn - 1])
    assert report.status == "finished" and report.last_verdict.startswith("6 passed")


def test_head_only_truncation_hides_the_verdict_and_the_agent_re_runs_then_gives_up():
    report = run_agent(AgentConfig(truncation_mode="head_only"))
    runs = [t for t in report.turns if t.tool == "run_command"]
    assert len(runs) >= 3 and report.edited == []
    assert "could not read a verdict" in report.turns[-1].result


def test_the_session_token_cap_stops_the_run():
    report = run_agent(AgentConfig(session_token_cap=3000))
    assert report.status == "stopped: session token cap 3,000 reached"
    assert report.input_tokens + report.output_tokens >= 3000


def test_max_turns_stops_the_run():
    report = run_agent(AgentConfig(max_turns=2))
    assert report.status == "stopped: max turns 2 reached" and len(report.turns) == 2


def test_masking_keeps_the_full_outputs_in_the_store():
    report = run_agent(AgentConfig(masking=True))
    assert report.store and report.status == "finished"


@pytest.mark.parametrize(
    "bad",
    [
        dict(context_budget=0),
        dict(compact_ratio=1.5),
        dict(keep_recent_turns=0),
        dict(head_ratio=2),
        dict(truncation_mode="middle"),
        dict(max_turns=0),
    ],
)
def test_bad_config_values_are_refused_with_the_reason(bad):
    with pytest.raises(ValueError, match=next(iter(bad))):
        AgentConfig(**bad)


def test_an_empty_report_reads_well():
    assert "0 turns" in repr(RunReport()) and RunReport().cost == 0.0

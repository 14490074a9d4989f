"""run_agent manages the context with the functions it is given (the student's, in lessons
04-06)."""

from harness.agent import AgentConfig, run_agent
from harness.compaction import compact, harness_state
from harness.masking import mask_observations
from harness.truncation import truncate_output


def spy(fn, calls: list):
    def wrapped(*args, **kwargs):
        calls.append(fn.__name__)
        return fn(*args, **kwargs)

    return wrapped


def test_run_agent_calls_the_compact_truncate_mask_and_state_it_is_given():
    calls = []
    report = run_agent(
        AgentConfig(context_budget=2500, masking=True),
        compact=spy(compact, calls),
        truncate=spy(truncate_output, calls),
        mask=spy(mask_observations, calls),
        state=spy(harness_state, calls),
    )
    assert report.status == "finished" and report.compactions
    assert {"compact", "truncate_output", "mask_observations", "harness_state"} <= set(calls)


def test_the_state_block_written_by_the_given_function_reaches_the_head():
    report = run_agent(
        AgentConfig(context_budget=5000), state=lambda edited, verdict: "[Harness-held state: mine]"
    )
    assert report.compactions and report.history[0].parts[-1].text == "[Harness-held state: mine]"

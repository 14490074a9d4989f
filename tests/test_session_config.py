"""One session configuration: the knobs the agent and the tutor share are validated and mean the
same."""

import dataclasses

import pytest

from harness.agent import AgentConfig
from harness.agent.config import SessionConfig
from harness.probes import Strategy, run_session, script_turns
from harness.usage import output_tokens

SHARED = [f.name for f in dataclasses.fields(SessionConfig)]
BAD = {
    "context_budget": (0, "a token count of at least 1"),
    "compact_ratio": (7, "in (0, 1]"),
    "keep_recent_turns": (0, "at least 1"),
    "tool_output_max_chars": (0, "at least 1"),
    "head_ratio": (1.5, "between 0 and 1"),
    "truncation_mode": ("middle", "one of"),
    "session_token_cap": (-1, "a token count of at least 1"),
}


def test_the_agent_and_the_tutor_share_every_session_knob():
    assert set(SHARED) == set(BAD) | {"truncate", "compaction"}  # the two switches need no range
    for config in (AgentConfig, Strategy):
        assert issubclass(config, SessionConfig) and set(SHARED) <= {
            f.name for f in dataclasses.fields(config)
        }


@pytest.mark.parametrize("config", [AgentConfig, Strategy])
@pytest.mark.parametrize("field", sorted(BAD))
def test_a_bad_value_is_refused_naming_the_field_and_the_allowed_range(config, field):
    value, allowed = BAD[field]
    with pytest.raises(
        ValueError, match=rf"{config.__name__}: {field} must be {__import__('re').escape(allowed)}"
    ):
        config(**{field: value})


def test_the_issues_example_names_both_broken_fields():
    with pytest.raises(ValueError) as refused:
        Strategy(context_budget=-5, compact_ratio=7)
    assert "context_budget must be" in str(refused.value) and "got -5" in str(refused.value)
    assert "compact_ratio must be in (0, 1], got 7" in str(refused.value)


def test_the_agent_refuses_an_unknown_model_or_task_before_any_call():
    with pytest.raises(ValueError, match="model: The workbook knows no model 'gemini-2.0-flash'"):
        AgentConfig(model="gemini-2.0-flash")
    # The list holds the sub-tasks other tests' coordinators registered in this process too.
    with pytest.raises(ValueError, match=r"task must be one of \['invoicing', .*\], got 'nope'"):
        AgentConfig(task="nope")


def test_strategies_keep_their_positional_name_and_tutor_defaults():
    assert (
        Strategy("mine").name == "mine"
        and Strategy().truncate is False
        and Strategy().context_budget == 4000
    )


def test_the_cap_counts_input_and_output_and_stops_once_reached():
    config = SessionConfig(session_token_cap=100)
    assert not config.over_cap(99) and config.over_cap(100)


def test_the_tutor_stops_when_input_plus_output_reach_the_cap(glass_box):
    full = run_session(glass_box, Strategy(), questions=2)
    turn_zero = [b for b in full.bundles if b.turn == 0]
    spent = sum(b.prompt_tokens + output_tokens(b.usage) for b in turn_zero)
    capped = run_session(glass_box, Strategy(session_token_cap=spent), questions=2)
    assert capped.config["stopped"] == "session token cap reached before turn 1"
    assert len(script_turns(2)) > 1 and {b.turn for b in capped.bundles} == {0}

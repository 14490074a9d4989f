"""harness.server_state: a server-held tutor session, its restarts, and lesson 11's panel."""

import pytest
from google.genai import types
from google.genai.interactions import Usage

from harness.billing import bill, price_for
from harness.probes import STRATEGIES, Strategy, probe_results, run_session
from harness.server_state import (
    ServerPlan,
    as_steps,
    run_server_session,
    should_restart,
    uploaded_tokens,
    usage_metadata,
)
from harness.widgets.lesson11 import restart_panel


def test_the_server_replays_what_the_client_would_have_sent(glass_box):
    server, client = (
        run_server_session(glass_box, questions=3),
        run_session(glass_box, STRATEGIES["full history"], 3),
    )
    assert [b.prompt_tokens for b in server.bundles] == [b.prompt_tokens for b in client.bundles]
    assert [b.answer for b in server.bundles] == [b.answer for b in client.bundles]
    assert (
        0
        < uploaded_tokens(server)
        < uploaded_tokens(client)
        == sum(b.prompt_tokens for b in client.bundles)
    )


def test_a_restart_is_a_fresh_interaction_from_the_compacted_copy(glass_box):
    plan = ServerPlan("restart", budget=4_000)
    server = run_server_session(glass_box, plan, questions=8)
    client = run_session(
        glass_box,
        Strategy("compacting", compaction=True, context_budget=4_000, keep_recent_turns=1),
        8,
    )
    restarts = [b for b in server.bundles if b.compactions]
    assert restarts and all(b.cached_tokens == 0 for b in restarts)
    assert [b.prompt_tokens for b in server.bundles] == [b.prompt_tokens for b in client.bundles]
    assert [b.kind for b in server.bundles].count("summary") == len(restarts)
    assert probe_results(server) == probe_results(client)


def test_the_policy_decides_the_restarts(glass_box):
    never = run_server_session(
        glass_box, ServerPlan("x", budget=4_000), 4, policy=lambda u, b, r: False
    )
    assert never.compaction_count() == 0
    seen = []

    def spy(usage, budget, ratio):
        seen.append((type(usage), budget, ratio))
        return should_restart(usage, budget, ratio)

    run_server_session(glass_box, ServerPlan("y", budget=5_000, ratio=0.5), 2, policy=spy)
    assert seen and set(seen) == {(Usage, 5_000, 0.5)}


def test_a_run_on_the_glass_box_is_reused_as_a_copy(glass_box):
    first = run_server_session(glass_box, questions=2)
    first.name = "renamed"
    assert run_server_session(glass_box, questions=2).name == "server-held, no restart"


def test_usage_metadata_names_the_fields_as_generate_content_does():
    u = usage_metadata(
        Usage(
            total_input_tokens=1_000,
            total_cached_tokens=800,
            total_output_tokens=20,
            total_thought_tokens=5,
            total_tokens=1_025,
        )
    )
    assert (
        u.prompt_token_count,
        u.cached_content_token_count,
        u.candidates_token_count,
        u.thoughts_token_count,
    ) == (1_000, 800, 20, 5)
    assert usage_metadata(None).prompt_token_count is None


def test_as_steps_keeps_calls_with_their_results_and_drops_thoughts():
    call = types.FunctionCall(id="call_1", name="search_course", args={"query": "cache"})
    history = [
        types.Content(role="user", parts=[types.Part.from_text(text="task")]),
        types.Content(
            role="model",
            parts=[types.Part(text="thinking", thought=True), types.Part(function_call=call)],
        ),
        types.Content(
            role="user",
            parts=[
                types.Part(
                    function_response=types.FunctionResponse(
                        id="call_1", name="search_course", response={"output": "passages"}
                    )
                )
            ],
        ),
        types.Content(role="model", parts=[types.Part.from_text(text="answer")]),
    ]
    assert as_steps(history) == [
        {"type": "user_input", "content": [{"type": "text", "text": "task"}]},
        {
            "type": "function_call",
            "id": "call_1",
            "name": "search_course",
            "arguments": {"query": "cache"},
        },
        {
            "type": "user_input",
            "content": [
                {
                    "type": "function_result",
                    "call_id": "call_1",
                    "name": "search_course",
                    "result": {"output": "passages"},
                }
            ],
        },
        {"type": "model_output", "content": [{"type": "text", "text": "answer"}]},
    ]


@pytest.mark.parametrize(
    "args, kind",
    [
        ((Usage(), 0), ValueError),
        ((Usage(), 4_000, 0.0), ValueError),
        ((Usage(), 4_000, 1.01), ValueError),
        ((Usage(), 4_000.0), TypeError),
        (({"total_input_tokens": 5}, 4_000), TypeError),
    ],
)
def test_should_restart_refuses_bad_arguments_saying_what_to_pass(args, kind):
    with pytest.raises(kind, match="budget|ratio|usage"):
        should_restart(*args)


def test_run_server_session_refuses_bad_arguments(glass_box):
    with pytest.raises(TypeError, match="plan"):
        run_server_session(glass_box, plan="restart")
    with pytest.raises(ValueError, match="ServerPlan.budget"):  # refused when the plan is made
        ServerPlan("x", budget=0)
    with pytest.raises(TypeError, match="policy"):
        run_server_session(glass_box, ServerPlan(), policy=None)


def test_the_panel_opens_drawn_and_redraws_from_the_policy_it_is_given(glass_box):
    asked = []

    def my_policy(usage, budget, ratio=0.7):
        asked.append(budget)
        return should_restart(usage, budget, ratio)

    length, limit, readout, chart = restart_panel(glass_box, my_policy, questions=4).children
    assert all(len(trace.x) for trace in chart.figure.data[:2]) and "knows" in readout.value
    before, bills = readout.value, [list(trace.y) for trace in chart.figure.data]
    limit.value = 9_000
    assert readout.value != before and 9_000 in asked
    length.value = 6
    assert [list(trace.y) for trace in chart.figure.data] != bills
    keep_all = bill(run_server_session(glass_box, ServerPlan(), 6).usages(), price_for())
    assert f"${keep_all:.5f}" in readout.value

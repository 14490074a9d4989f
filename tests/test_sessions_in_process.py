"""harness.plumbing.sessions_in_process: the harness's own sessions, asked in-process, send the
glass box the very bytes the SDK sends over loopback and record the same sessions; anything else
goes through the SDK."""

import functools
import json

import pytest
from google.genai import types

from harness import MODEL, connect, library, probes, server_state
from harness.agent import AgentConfig, run_agent
from harness.engine import server
from harness.plumbing import sessions_in_process
from harness.plumbing.sessions_in_process import CONFIG_FIELDS, generate_content
from harness.probes import STRATEGIES, run_session, with_knobs
from harness.scenarios.course import TUTOR_TOOLS
from harness.scenarios.course.script import QUESTIONS


@pytest.fixture
def seen(monkeypatch):
    """Every (path, raw body) the glass box answers, over loopback or in-process."""
    bodies, answer = [], server.glass_box

    def spy(method, path, query, raw):
        bodies.append((path, raw))
        return answer(method, path, query, raw)

    connect()  # the glass box started
    monkeypatch.setattr(server._servers[""], "answer", spy)
    monkeypatch.setattr(server, "glass_box", spy)
    monkeypatch.setattr(probes, "_GLASS_BOX_RUNS", {})
    monkeypatch.setattr(server_state, "_GLASS_BOX_RUNS", {})
    return bodies


def _in_process(client, allowed: bool):
    if allowed:
        sessions_in_process.register(client)
    else:
        sessions_in_process._GLASS_BOX_CLIENTS.discard(client)
    return client


_CLIENT = connect()  # one client for the module: a client the collector closes may close others


@functools.cache
def _history() -> list:
    """A question, the model's search call (with its thought signature) and the search's result."""
    question = types.Content(role="user", parts=[types.Part.from_text(text=f"{QUESTIONS[0]} é ✓")])
    config = types.GenerateContentConfig(tools=TUTOR_TOOLS)
    call = _CLIENT.models.generate_content(model=MODEL, contents=[question], config=config)
    assert call.function_calls, "the glass box no longer searches first: pick another question"
    result = types.Part.from_function_response(name="search_course", response={"output": "Tokens."})
    return [question, call.candidates[0].content, types.Content(role="user", parts=[result])]


# Every config field the in-process path accepts, alone and together, in each form a session uses.
CONFIGS = {
    "none": types.GenerateContentConfig(),
    "system text": types.GenerateContentConfig(system_instruction="You are a tutor."),
    "system content": types.GenerateContentConfig(
        system_instruction=types.Content(parts=[types.Part.from_text(text="You are a tutor.")])
    ),
    "tools": types.GenerateContentConfig(tools=TUTOR_TOOLS),
    "max_output_tokens": types.GenerateContentConfig(max_output_tokens=64),
    "all": types.GenerateContentConfig(
        system_instruction="Tutor.", tools=TUTOR_TOOLS, max_output_tokens=64
    ),
}
CONTENTS = {"text": lambda: "Hello.", "one message": lambda: _history()[0], "history": _history}


def test_the_configs_cover_every_field_the_path_accepts():
    covered = {name for config in CONFIGS.values() for name, value in config if value is not None}
    assert covered == CONFIG_FIELDS


@pytest.mark.parametrize("config", CONFIGS, ids=str)
@pytest.mark.parametrize("contents", CONTENTS, ids=str)
def test_the_bytes_sent_in_process_are_the_sdks(seen, config, contents):
    client, made = connect(), CONTENTS[contents]()  # the history asks the glass box once
    seen.clear()
    kwargs = {"model": MODEL, "contents": made, "config": CONFIGS[config]}
    by_sdk = generate_content(_in_process(client, False), **kwargs)
    in_process = generate_content(_in_process(client, True), **kwargs)
    (path_sdk, sent_by_sdk), (path, sent_in_process) = seen
    assert path == path_sdk and sent_in_process == sent_by_sdk
    assert in_process.model_dump(exclude={"sdk_http_response"}) == by_sdk.model_dump(
        exclude={"sdk_http_response"}
    ), "the answer must read as the SDK reads it"


def _recorded(run) -> list:
    return [(b.kind, b.usage, b.answer, b.tools, b.compactions, b.probe) for b in run.bundles]


@pytest.mark.parametrize(
    "strategy",
    [
        STRATEGIES["capped outputs"],
        STRATEGIES["prefix-preserving summary"],
        with_knobs(STRATEGIES["aggressive compaction"], timestamp_in_system=True),
    ],
    ids=lambda s: s.name,
)
def test_a_session_in_process_sends_the_sdks_bytes_and_records_the_same(seen, strategy):
    client = connect()
    by_sdk = _recorded(run_session(_in_process(client, False), strategy, 6))
    sent_by_sdk = seen[:]
    seen.clear()
    probes._GLASS_BOX_RUNS.clear()
    in_process = _recorded(run_session(_in_process(client, True), strategy, 6))
    assert len(sent_by_sdk) > 10, "the session made too few calls for this test to mean anything"
    assert seen == sent_by_sdk
    assert in_process == by_sdk


def _server_session(client, plan, seen) -> tuple[list, list]:
    seen.clear()
    server_state._GLASS_BOX_RUNS.clear()
    run = server_state.run_server_session(client, plan, 6)
    ids, bodies = {}, []  # the glass box names each interaction at random: numbered in order
    for path, raw in seen:
        previous = json.loads(raw).get("previous_interaction_id")
        if previous:
            raw = raw.replace(previous.encode(), b"<%d>" % ids.setdefault(previous, len(ids)))
        bodies.append((path, raw))
    return _recorded(run), bodies


@pytest.mark.parametrize("budget", [None, 3_000])
def test_a_server_held_session_in_process_sends_the_sdks_bytes_and_records_the_same(seen, budget):
    client, plan = connect(), server_state.ServerPlan("test", budget=budget)
    by_sdk, sent_by_sdk = _server_session(_in_process(client, False), plan, seen)
    in_process, sent_in_process = _server_session(_in_process(client, True), plan, seen)
    assert len(sent_by_sdk) > 10 and all(path.endswith("/interactions") for path, _ in sent_by_sdk)
    assert budget is None or any(b[4] for b in by_sdk), "the budget must restart the session once"
    assert sent_in_process == sent_by_sdk
    assert in_process == by_sdk


def test_another_config_field_or_client_goes_through_the_sdk(seen, monkeypatch):
    client = _in_process(connect(), True)
    calls = []
    monkeypatch.setattr(client.models, "generate_content", lambda **kw: calls.append(kw) or "sdk")
    thinking = types.GenerateContentConfig(thinking_config=types.ThinkingConfig(thinking_budget=0))
    assert generate_content(client, model="m", contents="hi", config=thinking) == "sdk"
    temperature = types.GenerateContentConfig(temperature=0.5)
    assert generate_content(client, model="m", contents="hi", config=temperature) == "sdk"
    plain = types.GenerateContentConfig()
    assert (
        generate_content(_in_process(client, False), model="m", contents="hi", config=plain)
        == "sdk"
    )
    assert len(calls) == 3 and not seen


def test_a_client_that_records_is_never_asked_in_process(tmp_path, monkeypatch):
    monkeypatch.setenv("WORKBOOK_RECORDING", f"record:{tmp_path / 'calls.jsonl'}")
    assert connect() not in sessions_in_process._GLASS_BOX_CLIENTS
    monkeypatch.delenv("WORKBOOK_RECORDING")
    assert connect() in sessions_in_process._GLASS_BOX_CLIENTS


def test_a_streamed_or_background_interaction_goes_through_the_sdk(seen, monkeypatch):
    client = _in_process(connect(), True)
    calls = []
    monkeypatch.setattr(client.interactions, "create", lambda **kw: calls.append(kw) or "sdk")
    create = sessions_in_process.create_interaction
    assert create(client, model=MODEL, input="hi", stream=True) == "sdk"
    assert create(client, model=MODEL, input="hi", background=True) == "sdk"
    assert create(_in_process(client, False), model=MODEL, input="hi") == "sdk"
    assert len(calls) == 3 and not seen


def _raised(call) -> tuple:
    try:
        call()
    except Exception as error:  # noqa: BLE001 - whatever the SDK raises is what is compared
        return type(error), str(error)
    raise AssertionError("the call should have failed")


@pytest.mark.parametrize("kind", ["generate_content", "interaction"])
def test_an_error_is_the_sdks_own(seen, kind):
    client = _in_process(connect(), False)

    def call():
        if kind == "interaction":
            return sessions_in_process.create_interaction(client, model="no-such-model", input="hi")
        return generate_content(
            client, model="no-such-model", contents="hi", config=CONFIGS["none"]
        )

    by_sdk = _raised(call)
    _in_process(client, True)
    assert _raised(call) == by_sdk and "no-such-model" in by_sdk[1]


@pytest.mark.parametrize("plan", [library.LibraryPlan("moved out"), library.budget_plan(400, True)])
def test_a_library_session_in_process_sends_the_sdks_bytes_and_records_the_same(
    seen, monkeypatch, plan
):
    monkeypatch.setattr(library, "_RUNS", {})
    client = connect()
    by_sdk = _recorded(library.run_library_session(_in_process(client, False), plan, 6))
    sent_by_sdk = seen[:]
    seen.clear()
    library._RUNS.clear()
    in_process = _recorded(library.run_library_session(_in_process(client, True), plan, 6))
    assert len(sent_by_sdk) > 10, "the session made too few calls for this test to mean anything"
    assert seen == sent_by_sdk
    assert in_process == by_sdk


def _through_the_sdk(**kwargs):
    raise AssertionError("the call went through the SDK, not in-process")


def _agent_run(client, config, seen) -> tuple[list, list]:
    seen.clear()
    report = run_agent(config, client=client)
    turns = [(t.prompt_tokens, t.tool, t.args, t.result, t.compacted) for t in report.turns]
    return [report.status, turns, [c.model_dump() for c in report.history]], seen[:]


@pytest.mark.parametrize(
    "config",
    [AgentConfig(), AgentConfig(context_budget=4_000, keep_recent_turns=1, summary_max_tokens=300)],
    ids=["default", "compacting"],
)
def test_an_agent_run_in_process_sends_the_sdks_bytes_and_reports_the_same(
    seen, config, monkeypatch
):
    """The agent's loop and its summaries (lessons 04-10, 14) take the in-process path too."""
    client = connect()
    by_sdk, sent_by_sdk = _agent_run(_in_process(client, False), config, seen)
    monkeypatch.setattr(client.models, "generate_content", _through_the_sdk)
    in_process, sent_in_process = _agent_run(_in_process(client, True), config, seen)
    assert len(sent_by_sdk) > 8, "the run made too few calls for this test to mean anything"
    assert config.context_budget > 10_000 or any(turn[4] for turn in by_sdk[1]), (
        "the small budget must compact at least once"
    )
    assert sent_in_process == sent_by_sdk
    assert in_process == by_sdk


def test_the_coordinators_report_call_in_process_is_the_sdks(seen, monkeypatch):
    import harness
    from harness import coordinator

    results = [coordinator.SubResult(("stock",), True, {"stock/levels.py": "x"}, 10, "ok")]
    client, sent = connect(), []
    monkeypatch.setattr(harness, "connect", lambda: client)
    for allowed in (False, True):
        _in_process(client, allowed)
        if allowed:  # from here on the SDK must not be called: the call is asked in-process
            monkeypatch.setattr(client.models, "generate_content", _through_the_sdk)
        monkeypatch.setattr(coordinator, "_RUNS", {})
        seen.clear()
        sent.append((coordinator._report_call(results), seen[:]))
    assert sent[0] == sent[1] and len(sent[0][1]) == 1

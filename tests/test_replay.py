"""Record and replay, tested against the glass box itself: a session recorded through connect()
with WORKBOOK_RECORDING=record:<file> is answered identically by replay:<file> with the glass box
unreachable, auto:<file> answers what the file holds and records the rest, and nothing of a key
reaches the recording."""

import json

import pytest
from google.genai import errors, types

import harness
from harness.plumbing.client import OFFLINE_KEY

MODEL = "gemini-3.8-flash"
FAKE_KEY = "AIza" + "X" * 35  # shaped like a Google key, so the recorder must hide it
TOOLS = types.GenerateContentConfig(
    tools=[
        types.Tool(
            function_declarations=[
                types.FunctionDeclaration(
                    name=name,
                    description=name,
                    parameters={"type": "OBJECT", "properties": {"path": {"type": "STRING"}}},
                )
                for name in ("list_files", "read_file", "edit_file", "run_command")
            ]
        )
    ]
)


def session(client) -> list:
    """A small lesson's worth of calls; what each returned, minus the HTTP details."""

    def dump(value):
        return value.model_dump(exclude={"sdk_http_response"}, mode="json")

    out = [
        dump(
            client.models.generate_content(
                model=MODEL, contents="The office opens at 8 am. When does it open?"
            )
        ),
        dump(
            client.models.generate_content(
                model=MODEL, contents="Fix the failing tests.", config=TOOLS
            )
        ),
        [
            dump(c)
            for c in client.models.generate_content_stream(
                model=MODEL, contents="Where is the README?"
            )
        ],
        dump(client.models.count_tokens(model=MODEL, contents="one two three")),
        dump(client.models.get(model=MODEL)),
    ]
    with pytest.raises(errors.ClientError) as caught:
        client.models.generate_content(model=MODEL, contents="hi", config={"temperature": 9.0})
    return out + [(caught.value.code, caught.value.message)]


@pytest.fixture
def recorded(glass_box, monkeypatch, tmp_path):
    """A session recorded on the glass box: (path of the recording, what the session saw)."""
    path = tmp_path / "lesson.jsonl"
    monkeypatch.setenv("WORKBOOK_RECORDING", f"record:{path}")
    monkeypatch.setenv("GEMINI_API_KEY", FAKE_KEY)
    seen = session(harness.connect(retry_attempts=1))
    monkeypatch.delenv("WORKBOOK_RECORDING")
    return path, seen


def replaying(monkeypatch, path):
    import harness.engine.server as server

    def unreachable(*args):
        raise AssertionError("the replay reached the glass box")

    monkeypatch.setattr(server, "route", unreachable)
    monkeypatch.setenv("WORKBOOK_RECORDING", f"replay:{path}")
    return harness.connect(retry_attempts=1)


def test_a_replay_answers_a_recorded_session_identically_without_the_glass_box(
    recorded, monkeypatch
):
    path, seen = recorded
    assert len(path.read_text().splitlines()) == 6  # one line per exchange
    assert session(replaying(monkeypatch, path)) == seen


def test_the_recording_holds_no_header_and_no_key(recorded, monkeypatch):
    path, _ = recorded
    monkeypatch.setenv("WORKBOOK_RECORDING", f"record:{path}")
    # NOTE: keep a reference: a collected Client closes its transport
    client = harness.connect(retry_attempts=1)
    client.models.generate_content(model=MODEL, contents=f"My key is {FAKE_KEY}, keep it.")
    text = path.read_text()
    assert FAKE_KEY not in text and "[redacted]" in text
    assert OFFLINE_KEY not in text and "x-goog-api-key" not in text.lower()
    assert all(
        set(json.loads(line))
        == {"method", "path", "query", "request", "status", "contentType", "response"}
        for line in text.splitlines()
    )


def test_a_request_not_in_the_recording_is_a_clear_404_json_error(recorded, monkeypatch):
    path, _ = recorded
    client = replaying(monkeypatch, path)
    with pytest.raises(errors.ClientError) as caught:
        client.models.generate_content(model=MODEL, contents="Something never recorded.")
    assert caught.value.code == 404
    assert (
        "not recorded" in caught.value.message and "WORKBOOK_RECORDING=auto" in caught.value.message
    )


def test_a_request_recorded_once_is_answered_again_when_a_cell_runs_twice(recorded, monkeypatch):
    path, seen = recorded
    client = replaying(monkeypatch, path)
    again = [
        client.models.count_tokens(model=MODEL, contents="one two three").total_tokens
        for _ in range(2)
    ]
    assert again == [seen[3]["total_tokens"]] * 2


def test_a_broken_recording_is_refused_naming_the_line(tmp_path, monkeypatch):
    path = tmp_path / "broken.jsonl"
    path.write_text('{"method": "POST"}\n')
    monkeypatch.setenv("WORKBOOK_RECORDING", f"replay:{path}")
    with pytest.raises(ValueError, match="line 1"):
        harness.connect()


def test_the_mode_line_says_it_is_a_replay(monkeypatch, tmp_path):
    monkeypatch.setenv("WORKBOOK_RECORDING", f"replay:{tmp_path / 'lesson.jsonl'}")
    assert harness.mode_line().startswith("Replay:")


def test_auto_answers_what_the_file_holds_and_records_what_it_lacks(recorded, monkeypatch):
    path, seen = recorded
    before = path.read_text().splitlines()
    import harness.engine.server as server

    reached = []
    real_route = server.route
    monkeypatch.setattr(server, "route", lambda *args: reached.append(args[1]) or real_route(*args))
    monkeypatch.setenv("WORKBOOK_RECORDING", f"auto:{path}")
    client = harness.connect(retry_attempts=1)
    assert session(client) == seen and reached == []  # all of it from the file
    new = client.models.generate_content(
        model=MODEL, contents="The shop shuts at 6 pm. When does it shut?"
    )
    assert len(reached) == 1 and "6 pm" in new.text  # the one it lacked went to the glass box...
    after = path.read_text().splitlines()
    # ...and was added to the file
    assert after[: len(before)] == before and len(after) == len(before) + 1
    monkeypatch.setattr(
        server, "route", lambda *args: pytest.fail("a replay reached the glass box")
    )
    monkeypatch.setenv("WORKBOOK_RECORDING", f"replay:{path}")
    assert (
        harness.connect(retry_attempts=1)
        .models.generate_content(model=MODEL, contents="The shop shuts at 6 pm. When does it shut?")
        .text
        == new.text
    )


def test_auto_on_a_file_not_there_yet_records_it(glass_box, monkeypatch, tmp_path):
    path = tmp_path / "new.jsonl"
    monkeypatch.setenv("WORKBOOK_RECORDING", f"auto:{path}")
    client = harness.connect(retry_attempts=1)
    client.models.generate_content(model=MODEL, contents="Hello.")
    assert len(path.read_text().splitlines()) == 1


@pytest.mark.parametrize("setting", ["replay", "sometimes:x.jsonl", "record:", "x.jsonl"])
def test_a_malformed_setting_says_the_form(monkeypatch, setting):
    monkeypatch.setenv("WORKBOOK_RECORDING", setting)
    with pytest.raises(ValueError, match="<mode>:<file>"):
        harness.connect()


@pytest.mark.parametrize("retired", ["WORKBOOK_RECORD", "WORKBOOK_REPLAY"])
def test_the_retired_variables_are_refused_naming_the_one_option(monkeypatch, tmp_path, retired):
    monkeypatch.setenv(retired, str(tmp_path / "x.jsonl"))
    with pytest.raises(ValueError, match=f"{retired} is no longer read: set WORKBOOK_RECORDING"):
        harness.connect()


def interactions_session(client) -> list:
    """A server-held conversation through `client.interactions`: a chained create, a read back, a
    stateless turn and the 404 of chaining on it, a stream, a delete and the 404 of reading it
    again.
    """

    def dump(value):
        return value.model_dump(mode="json") if value is not None else None  # delete returns None

    first = client.interactions.create(model=MODEL, input="My locker code is 4711.")
    second = client.interactions.create(
        model=MODEL, input="What is my locker code?", previous_interaction_id=first.id
    )
    stateless = client.interactions.create(model=MODEL, input="Remember nothing.", store=False)
    out = [
        dump(first),
        dump(second),
        dump(client.interactions.get(second.id)),
        dump(stateless),
        [
            dump(event)
            for event in client.interactions.create(model=MODEL, input="Hello there.", stream=True)
        ],
        dump(client.interactions.delete(first.id)),
    ]
    for attempt in (
        lambda: client.interactions.create(
            model=MODEL, input="And now?", previous_interaction_id=stateless.id
        ),
        lambda: client.interactions.get(first.id),
    ):
        # the SDK's interactions errors are not exported publicly
        with pytest.raises(Exception) as caught:
            attempt()
        out.append((caught.value.status_code, str(caught.value)))
    return out


@pytest.fixture
def recorded_interactions(glass_box, monkeypatch, tmp_path):
    path = tmp_path / "lesson11.jsonl"
    monkeypatch.setenv("WORKBOOK_RECORDING", f"record:{path}")
    seen = interactions_session(harness.connect(retry_attempts=1))
    monkeypatch.delenv("WORKBOOK_RECORDING")
    return path, seen


def test_the_interactions_api_is_recorded_and_replayed_identically(
    recorded_interactions, monkeypatch
):
    path, seen = recorded_interactions
    exchanges = [json.loads(line) for line in path.read_text().splitlines()]
    create = ("POST", "/v1beta/interactions")
    # errors are replayed too
    assert [(e["method"], e["path"], e["status"]) for e in exchanges] == [
        (*create, 200),
        (*create, 200),
        (*create, 200),
        ("GET", f"/v1beta/interactions/{seen[1]['id']}", 200),
        (*create, 200),
        ("DELETE", f"/v1beta/interactions/{seen[0]['id']}", 200),
        (*create, 404),
        ("GET", f"/v1beta/interactions/{seen[0]['id']}", 404),
    ]
    # the stream is kept as its events
    assert exchanges[4]["contentType"].startswith("text/event-stream")
    assert seen[1]["previous_interaction_id"] == seen[0]["id"] and "4711" in json.dumps(
        seen[1]["steps"]
    )
    assert interactions_session(replaying(monkeypatch, path)) == seen


def test_an_interaction_not_in_the_recording_is_a_404_naming_the_request(
    recorded_interactions, monkeypatch
):
    path, _ = recorded_interactions
    client = replaying(monkeypatch, path)
    with pytest.raises(Exception) as caught:
        client.interactions.create(model=MODEL, input="Something never recorded.")
    assert caught.value.status_code == 404
    # the request named: its method, path, body's start, and the file's others there
    message = str(caught.value)
    assert (
        'holds no POST /v1beta/interactions with this body ({"input": "Something never recorded."'
        in message
    )
    assert "it holds 5 others there" in message
    with pytest.raises(
        Exception, match=r"holds no GET /v1beta/interactions/v1_unknown\?stream=false with no body"
    ):
        client.interactions.get("v1_unknown")


async def async_session(client) -> list:
    """The async client's twins of a few calls: generateContent, a stream, and a chained
    interaction."""

    def dump(value):
        return value.model_dump(exclude={"sdk_http_response"}, mode="json")

    out = [
        dump(
            await client.aio.models.generate_content(
                model=MODEL, contents="The office opens at 8 am. When?"
            )
        )
    ]
    out.append(
        [
            dump(c)
            async for c in await client.aio.models.generate_content_stream(
                model=MODEL, contents="Hi."
            )
        ]
    )
    first = await client.aio.interactions.create(model=MODEL, input="My locker code is 4711.")
    second = await client.aio.interactions.create(
        model=MODEL, input="And my code?", previous_interaction_id=first.id
    )
    return out + [first.model_dump(mode="json"), second.model_dump(mode="json")]


def test_the_async_client_is_recorded_and_replayed_too(glass_box, monkeypatch, tmp_path):
    import asyncio

    path = tmp_path / "aio.jsonl"
    monkeypatch.setenv("WORKBOOK_RECORDING", f"record:{path}")
    client = harness.connect(retry_attempts=1)
    seen = asyncio.run(async_session(client))
    assert [
        json.loads(line)["path"].rsplit("/", 1)[-1] for line in path.read_text().splitlines()
    ] == [
        f"{MODEL}:generateContent",
        f"{MODEL}:streamGenerateContent",
        "interactions",
        "interactions",
    ]
    assert "4711" in json.dumps(seen[-1]["steps"])
    assert asyncio.run(async_session(replaying(monkeypatch, path))) == seen


def test_a_replay_counts_the_recorded_answers_nobody_asked_for(recorded):
    from harness.engine.replay import Replay

    path, _ = recorded
    replay = Replay(path)
    entries = [json.loads(line) for line in path.read_text().splitlines()]
    assert replay.unasked() == len(entries) == 6
    first = entries[0]
    replay.lookup(
        first["method"], first["path"], first["query"], json.dumps(first["request"]).encode()
    )
    # again
    replay.lookup(
        first["method"], first["path"], first["query"], json.dumps(first["request"]).encode()
    )
    # a second ask of the same request answers again but retraces nothing new
    assert replay.unasked() == 5

"""Gemini's OpenAI-compatible endpoint on the glass box, through the real openai SDK: the same
answers, limits and usage as generateContent, tool calls that carry their thought signature, and
Gemini's errors.
"""

import json

import pytest

from harness import MODEL
from harness.engine.embeddings import vector
from harness.engine.server import ensure_running

openai = pytest.importorskip("openai")  # the `test` extra of pyproject.toml

WEATHER = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Gets the weather for a location.",
            "parameters": {
                "type": "object",
                "properties": {"location": {"type": "string"}},
                "required": ["location"],
            },
        },
    }
]


@pytest.fixture
def client(glass_box):  # glass_box: the offline environment, and the scenarios registered
    return openai.OpenAI(
        api_key="offline", base_url=ensure_running() + "/v1beta/openai/", max_retries=0
    )


def _ask(client, content, **settings):
    return client.chat.completions.create(
        model=MODEL, messages=[{"role": "user", "content": content}], **settings
    )


def test_a_text_answer_is_the_one_generate_content_gives(client, glass_box):
    question = "My dog is called Rex. What is my dog called?"
    reply = _ask(client, question)
    native = glass_box.models.generate_content(model=MODEL, contents=question)
    assert reply.object == "chat.completion" and reply.choices[0].message.role == "assistant"
    assert reply.choices[0].message.content == native.text
    assert reply.choices[0].finish_reason == "stop"
    assert reply.model == MODEL


def test_usage_is_generate_contents_in_openais_names(client, glass_box):
    question = "Count the tokens of this question."
    usage = _ask(client, question).usage
    native = glass_box.models.generate_content(model=MODEL, contents=question).usage_metadata
    assert usage.prompt_tokens == native.prompt_token_count
    assert usage.completion_tokens == native.candidates_token_count
    # thoughts included, as Gemini counts them
    assert usage.total_tokens == native.total_token_count
    assert usage.completion_tokens_details.reasoning_tokens == native.thoughts_token_count


def test_a_system_message_becomes_the_system_instruction(client, glass_box):
    system = "The secret word is heliotrope."
    reply = client.chat.completions.create(
        model=MODEL,
        messages=[
            {"role": "system", "content": system},
            {"role": "user", "content": "What is the secret word?"},
        ],
    )
    native = glass_box.models.generate_content(
        model=MODEL, contents="What is the secret word?", config={"system_instruction": system}
    )
    assert reply.choices[0].message.content == native.text
    assert "heliotrope" in reply.choices[0].message.content


def test_a_tool_call_round_trip_carries_its_thought_signature(client):
    messages = [{"role": "user", "content": "What's the weather in Paris?"}]
    first = client.chat.completions.create(model=MODEL, messages=messages, tools=WEATHER)
    [call] = first.choices[0].message.tool_calls
    assert first.choices[0].finish_reason == "tool_calls"
    assert call.function.name == "get_weather" and json.loads(call.function.arguments) == {
        "location": "Paris"
    }
    assert call.model_extra["extra_content"]["google"]["thought_signature"]
    messages += [
        first.choices[0].message.model_dump(exclude_none=True),
        {
            "role": "tool",
            "tool_call_id": call.id,
            "content": json.dumps({"forecast": "Sunny, 21 C"}),
        },
    ]
    second = client.chat.completions.create(model=MODEL, messages=messages, tools=WEATHER)
    assert "Sunny, 21 C" in second.choices[0].message.content


def test_a_tool_call_sent_back_without_its_signature_is_geminis_400(client):
    messages = [{"role": "user", "content": "What's the weather in Paris?"}]
    first = client.chat.completions.create(model=MODEL, messages=messages, tools=WEATHER)
    assistant = first.choices[0].message.model_dump(exclude_none=True)
    for call in assistant["tool_calls"]:
        call.pop("extra_content")
    messages += [
        assistant,
        {"role": "tool", "tool_call_id": assistant["tool_calls"][0]["id"], "content": "Sunny"},
    ]
    with pytest.raises(openai.BadRequestError) as caught:
        client.chat.completions.create(model=MODEL, messages=messages, tools=WEATHER)
    assert "missing a thought_signature" in caught.value.body[0]["error"]["message"]


@pytest.mark.parametrize(
    "choice, calls",
    [
        ("none", False),
        ("auto", True),
        ("required", True),
        ({"type": "function", "function": {"name": "get_weather"}}, True),
    ],
)
def test_tool_choice_sets_the_calling_mode(client, choice, calls):
    reply = _ask(client, "What's the weather in Paris?", tools=WEATHER, tool_choice=choice)
    assert bool(reply.choices[0].message.tool_calls) == calls


def _after_a_long_result(client) -> list[dict]:
    """A conversation whose next answer quotes a long tool result (a long answer)."""
    messages = [{"role": "user", "content": "What's the weather in Paris?"}]
    first = (
        client.chat.completions.create(model=MODEL, messages=messages, tools=WEATHER)
        .choices[0]
        .message
    )
    forecast = " ".join(f"Hour {hour}: clear sky, light wind, {hour + 10} C." for hour in range(8))
    return messages + [
        first.model_dump(exclude_none=True),
        {"role": "tool", "tool_call_id": first.tool_calls[0].id, "content": forecast},
    ]


def test_a_stream_is_several_chunks_with_usage_on_each_then_done(client):
    messages = _after_a_long_result(client)
    whole = client.chat.completions.create(model=MODEL, messages=messages, tools=WEATHER)
    pieces = list(
        client.chat.completions.create(model=MODEL, messages=messages, tools=WEATHER, stream=True)
    )
    assert len(pieces) > 3 and all(p.object == "chat.completion.chunk" for p in pieces)
    assert (
        "".join(p.choices[0].delta.content or "" for p in pieces)
        == whole.choices[0].message.content
    )
    assert all(
        p.usage is not None and p.usage.prompt_tokens == whole.usage.prompt_tokens for p in pieces
    )
    assert [p.usage.completion_tokens for p in pieces] == sorted(
        p.usage.completion_tokens for p in pieces
    )
    assert pieces[-1].usage == whole.usage
    assert [p.choices[0].finish_reason for p in pieces] == [None] * (len(pieces) - 1) + ["stop"]


def test_the_raw_stream_ends_with_done():
    import urllib.request

    body = json.dumps(
        {"model": MODEL, "stream": True, "messages": [{"role": "user", "content": "Hello there."}]}
    )
    request = urllib.request.Request(
        ensure_running() + "/v1beta/openai/chat/completions",
        body.encode(),
        headers={"Content-Type": "application/json", "Authorization": "Bearer offline"},
    )
    with urllib.request.urlopen(request) as answer:
        events = answer.read().decode().split("\n\n")
    assert events[-2:] == ["data: [DONE]", ""] and all(e.startswith("data: {") for e in events[:-2])


def test_a_streamed_tool_call_has_its_signature_and_index(client):
    pieces = list(_ask(client, "What's the weather in Paris?", tools=WEATHER, stream=True))
    calls = [call for p in pieces for call in p.choices[0].delta.tool_calls or []]
    assert [call.index for call in calls] == [0]
    assert calls[0].model_extra["extra_content"]["google"]["thought_signature"]
    assert pieces[-1].choices[0].finish_reason == "tool_calls"


def test_max_tokens_cuts_the_answer_as_max_output_tokens_does(client, glass_box):
    question = "Please repeat: " + "alpha beta gamma delta " * 10
    reply = _ask(client, question, max_tokens=8, reasoning_effort="low")
    assert reply.choices[0].finish_reason == "length" and reply.usage.completion_tokens < 8


def test_json_schema_response_format_parses_into_the_model(client):
    pydantic = pytest.importorskip("pydantic")

    class Answer(pydantic.BaseModel):
        city: str
        days: int

    parsed = (
        client.beta.chat.completions.parse(
            model=MODEL,
            messages=[{"role": "user", "content": "Plan Rome."}],
            response_format=Answer,
        )
        .choices[0]
        .message.parsed
    )
    assert isinstance(parsed, Answer)


def test_an_error_is_a_list_holding_googles_error_object(client):
    with pytest.raises(openai.BadRequestError) as caught:
        _ask(client, "Hello.", reasoning_effort="minimal")
    assert caught.value.body == [
        {
            "error": {
                "code": 400,
                "status": "INVALID_ARGUMENT",
                "message": (
                    "Invalid reasoning_effort: minimal. Valid values are: high, low, medium, none"
                ),
            }
        }
    ]


@pytest.mark.parametrize(
    "settings, words",
    [
        ({"temperature": 5}, "temperature"),
        ({"tools": [{"type": "web_search"}]}, "web_search"),
        ({"tools": [{"google_search": {}}]}, "google_search"),
        ({"tool_choice": "sometimes"}, "tool_choice"),
        ({"extra_body": {"colour": "red"}}, 'Unknown name "colour"'),
    ],
)
def test_what_gemini_refuses_is_a_400_that_names_it(client, settings, words):
    with pytest.raises(openai.BadRequestError) as caught:
        _ask(client, "Hello.", **settings)
    assert words in caught.value.body[0]["error"]["message"]


def test_an_unknown_model_is_a_404(client):
    with pytest.raises(openai.NotFoundError) as caught:
        client.chat.completions.create(
            model="gemini-9-ultra", messages=[{"role": "user", "content": "Hi"}]
        )
    assert "models/gemini-9-ultra is not found" in caught.value.body[0]["error"]["message"]


def test_a_tool_message_for_no_call_is_a_400(client):
    with pytest.raises(openai.BadRequestError) as caught:
        client.chat.completions.create(
            model=MODEL,
            messages=[
                {"role": "user", "content": "Hi"},
                {"role": "tool", "tool_call_id": "call_nowhere", "content": "x"},
            ],
        )
    assert "call_nowhere" in caught.value.body[0]["error"]["message"]


def test_the_models_list_names_the_served_models(client):
    ids = [model.id for model in client.models.list()]
    assert f"models/{MODEL}" in ids and "models/gemini-embedding-001" in ids
    assert client.models.retrieve(MODEL).id == f"models/{MODEL}"


def test_embeddings_are_the_glass_boxs_vectors_in_floats_or_base64(client):
    texts = ["Water the tomato plants.", "The cat sleeps."]
    floats = client.embeddings.create(
        model="gemini-embedding-001", input=texts, encoding_format="float"
    )
    default = client.embeddings.create(model="gemini-embedding-001", input=texts, dimensions=768)
    assert [d.embedding for d in floats.data] == [vector(t) for t in texts]
    assert [pytest.approx(d.embedding, abs=1e-6) for d in default.data] == [
        vector(t, 768) for t in texts
    ]


def test_the_request_is_not_changed(client):
    messages = [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Weather in Paris?"},
    ]
    sent = json.loads(json.dumps(messages))
    client.chat.completions.create(model=MODEL, messages=sent, tools=WEATHER)
    assert sent == messages


def test_the_implicit_cache_serves_the_endpoint_as_it_serves_generate_content(client):
    manual = " ".join(
        f"Rule {i}: every crate of kind {i} ships on weekday {i % 5}." for i in range(500)
    )
    messages = [
        {"role": "system", "content": manual},
        {"role": "user", "content": "When does kind 7 ship?"},
    ]
    first = client.chat.completions.create(model=MODEL, messages=messages)
    second = client.chat.completions.create(
        model=MODEL, messages=messages[:1] + [{"role": "user", "content": "When does kind 9 ship?"}]
    )
    assert first.usage.prompt_tokens_details is None
    assert 0 < second.usage.prompt_tokens_details.cached_tokens < second.usage.prompt_tokens


def test_parallel_calls_are_answered_by_consecutive_tool_messages_as_one_turn(client):
    messages = [{"role": "user", "content": "What's the weather in Paris and in London?"}]
    first = (
        client.chat.completions.create(model=MODEL, messages=messages, tools=WEATHER)
        .choices[0]
        .message
    )
    places = [json.loads(call.function.arguments)["location"] for call in first.tool_calls]
    assert places == ["Paris", "London"]
    messages.append(first.model_dump(exclude_none=True))
    messages += [
        {"role": "tool", "tool_call_id": call.id, "content": f"Rain in {place}"}
        for call, place in zip(first.tool_calls, places)
    ]
    answer = (
        client.chat.completions.create(model=MODEL, messages=messages, tools=WEATHER)
        .choices[0]
        .message.content
    )
    assert "Rain in Paris" in answer and "Rain in London" in answer


def test_extra_body_google_thinking_config_shows_thoughts_in_thought_tags(client):
    google = {"google": {"thinking_config": {"include_thoughts": True}}}
    content = _ask(client, "Hello.", extra_body={"extra_body": google}).choices[0].message.content
    assert content.startswith("<thought>") and "</thought>" in content


@pytest.mark.parametrize("effort, tokens", [("none", 1), ("low", 1), ("medium", 2), ("high", 4)])
def test_reasoning_effort_sets_the_thinking_that_is_billed(client, effort, tokens):
    # "none" is the lowest level the model has: low, for gemini-3.8-flash (minimal is refused there)
    usage = _ask(client, "Hello there, glass box.", reasoning_effort=effort).usage
    reasoning = (
        usage.completion_tokens_details.reasoning_tokens if usage.completion_tokens_details else 0
    )
    # thinking.py: thoughts = multiple x answer tokens
    assert reasoning == tokens * usage.completion_tokens


def test_reasoning_effort_on_a_budget_model_becomes_a_thinking_budget(client, legacy_models):
    usage = client.chat.completions.create(
        model="gemini-2.5-flash",
        reasoning_effort="none",
        messages=[{"role": "user", "content": "Hello."}],
    ).usage
    assert usage.completion_tokens_details is None  # budget 0: no thinking

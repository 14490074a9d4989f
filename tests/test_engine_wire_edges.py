"""Issue 19's last differences of the wire: each answered as Gemini answers it, the cache table
unharmed."""

import http.client
import json
import math
import socket
import time

import pytest
from google.genai import errors, types

from harness.engine.server import FIRST_REQUEST_SECONDS, ensure_running
from harness.tokens import approx_tokens

MODEL = "gemini-3.8-flash"
BIG = "\n".join(
    f"Clause {i}: orders of {i} crates ship from depot {i % 3} on weekday {i % 5}."
    for i in range(400)
)


def post(path: str, raw: bytes) -> tuple[int, dict]:
    host, port = ensure_running().removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=10)
    try:
        connection.request(
            "POST",
            path,
            body=raw,
            headers={"Content-Type": "application/json", "x-goog-api-key": "offline"},
        )
        answer = connection.getresponse()
        return answer.status, json.loads(answer.read())
    finally:
        connection.close()


def generate(raw: bytes) -> tuple[int, dict]:
    return post(f"/v1beta/models/{MODEL}:generateContent", raw)


HELLO = b'{"contents": [{"role": "user", "parts": [{"text": "Hello."}]}]}'


def make_cache(glass_box, ttl: str):
    assert approx_tokens(BIG) > 4096
    return glass_box.caches.create(
        model=MODEL,
        config=types.CreateCachedContentConfig(
            contents=[types.Content(role="user", parts=[types.Part(text=BIG)])], ttl=ttl
        ),
    )


@pytest.mark.parametrize("ttl", ["nans", "infs", "1e12s", "-infs", "12", "1000000000000s"])
def test_a_ttl_proto_json_cannot_read_is_a_400_and_the_cache_table_still_lists(glass_box, ttl):
    kept = make_cache(glass_box, "300s")
    with pytest.raises(errors.ClientError) as caught:
        make_cache(glass_box, ttl)
    assert (
        caught.value.code == 400
        and "google.protobuf.Duration" in caught.value.message
        and ttl in caught.value.message
    )
    assert [c.name for c in glass_box.caches.list()] == [kept.name]
    with pytest.raises(errors.ClientError):
        glass_box.caches.update(name=kept.name, config=types.UpdateCachedContentConfig(ttl=ttl))
    assert glass_box.caches.get(name=kept.name).expire_time == kept.expire_time


@pytest.mark.parametrize("ttl", ["-5s", "0s"])
def test_a_ttl_that_is_not_positive_is_a_400(glass_box, ttl):
    with pytest.raises(errors.ClientError) as caught:
        make_cache(glass_box, ttl)
    assert caught.value.code == 400 and "positive ttl" in caught.value.message
    assert list(glass_box.caches.list()) == []


def test_an_expire_time_in_the_past_is_a_400(glass_box):
    with pytest.raises(errors.ClientError) as caught:
        glass_box.caches.create(
            model=MODEL,
            config=types.CreateCachedContentConfig(
                contents=[types.Content(role="user", parts=[types.Part(text=BIG)])],
                expire_time="2020-01-01T00:00:00Z",
            ),
        )
    assert caught.value.code == 400 and "has passed" in caught.value.message


@pytest.mark.parametrize("value", [math.nan, math.inf])
def test_a_nan_or_infinite_temperature_is_a_400(glass_box, value):
    with pytest.raises(errors.ClientError) as caught:
        glass_box.models.generate_content(model=MODEL, contents="Hi", config={"temperature": value})
    assert caught.value.code == 400 and "Invalid JSON payload received" in caught.value.message


def test_nan_as_proto_json_spells_it_is_out_of_range():
    status, body = generate(HELLO[:-1] + b', "generationConfig": {"temperature": "NaN"}}')
    assert status == 400 and "temperature" in body["error"]["message"]


def test_a_name_twice_in_one_object_is_a_400():
    status, body = generate(HELLO[:-1] + b', "contents": []}')
    assert status == 400 and 'Duplicate field "contents"' in body["error"]["message"]


def test_a_byte_order_mark_is_a_400():
    status, body = generate(b"\xef\xbb\xbf" + HELLO)
    assert status == 400 and "byte-order mark" in body["error"]["message"]
    assert generate(HELLO)[0] == 200  # the same body without it is fine


# The cookbook's REST quickstarts send these bodies and their saved outputs show Gemini's 200
# (google-gemini/cookbook e26e33d2, 2026-06-17: rest/Caching_REST, rest/Prompting_REST,
# rest/JSON_mode_REST).
@pytest.mark.parametrize(
    "raw",
    [
        b'{"contents": [{"role": "user", "parts": [{"text": "Hello."}]},\n  ]}',
        (
            b'{"contents": [{"parts": [{"text": "Hello."}]}], "generationConfig":'
            b' {"maxOutputTokens": 200,\n}, }'
        ),
        (
            b'{"contents": [{"parts": [{"text": "List cookies with this schema:\n  {\'type\':'
            b" 'object'}\"}]}]}"
        ),
    ],
)
def test_a_trailing_comma_or_a_raw_line_break_in_a_string_is_read_as_gemini_reads_it(raw):
    status, body = generate(raw)
    assert status == 200, body
    assert body["candidates"][0]["content"]["parts"][0]["text"]


def test_a_comma_in_a_string_stays_and_other_broken_json_is_still_a_400():
    from harness.engine.wire import parse_body

    assert parse_body(b'{"t": "a,] \\", ,}", "l": [1,],}') == {"t": 'a,] ", ,}', "l": [1]}
    for raw in (
        b'{"contents": [,]}',
        b'{"contents": [{"parts": [{"text": \'hi\'}]}]}',
        b"{contents: []}",
    ):
        status, body = generate(raw)
        assert status == 400 and "Invalid JSON payload received" in body["error"]["message"], raw


@pytest.mark.parametrize(
    "contents, where",
    [
        ([{"role": "user", "parts": [{"text": ""}]}], "contents[0].parts[0].data"),
        ([{"role": "user", "parts": [{"text": "Hi"}, {}]}], "contents[0].parts[1].data"),
    ],
)
def test_a_part_with_no_data_is_geminis_400(contents, where):
    status, body = generate(json.dumps({"contents": contents}).encode())
    assert status == 400
    assert (
        body["error"]["message"]
        == f"* GenerateContentRequest.{where}: required oneof field 'data' must have "
        "one initialized field"
    )


def test_an_empty_system_instruction_text_is_the_same_400(glass_box):
    with pytest.raises(errors.ClientError) as caught:
        glass_box.models.generate_content(
            model=MODEL, contents="Hi", config={"system_instruction": ""}
        )
    assert "system_instruction.parts[0].data: required oneof field 'data'" in caught.value.message


def test_numbers_as_the_sdk_and_hand_written_json_send_them_are_read():
    for config in (
        {"topK": 40.0},
        {"topK": "40"},
        {"maxOutputTokens": 5.0},
        {"temperature": "0.5"},
    ):
        status, body = generate(
            HELLO[:-1] + b', "generationConfig": ' + json.dumps(config).encode() + b"}"
        )
        assert status == 200, (config, body)
    assert generate(HELLO[:-1] + b', "generationConfig": {"topK": 40.5}}')[0] == 400


def raw_exchange(data: bytes, wait: float = 30) -> tuple[bytes, float]:
    host, port = ensure_running().removeprefix("http://").split(":")
    start = time.monotonic()
    with socket.create_connection((host, int(port)), timeout=wait) as sock:
        if data:
            sock.sendall(data)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return answer, time.monotonic() - start


def test_an_http_09_request_line_gets_a_400_at_once():
    answer, seconds = raw_exchange(b"GET /v1beta/models\r\n")
    assert answer.startswith(b"HTTP/1.1 400") and b"HTTP/0.9" in answer
    assert seconds < FIRST_REQUEST_SECONDS  # answered, not held until a timeout


def test_a_silent_connection_gets_a_408_and_is_closed():
    answer, _ = raw_exchange(b"", wait=FIRST_REQUEST_SECONDS + 20)
    assert answer.startswith(b"HTTP/1.1 408") and b"DEADLINE_EXCEEDED" in answer


@pytest.mark.parametrize(
    "tool, name",
    [
        (types.Tool(google_search=types.GoogleSearch()), "google_search"),
        (types.Tool(code_execution=types.ToolCodeExecution()), "code_execution"),
        (types.Tool(url_context=types.UrlContext()), "url_context"),
    ],
)
def test_a_built_in_tool_is_refused_by_name_never_ignored(glass_box, tool, name):
    with pytest.raises(errors.ClientError) as caught:
        glass_box.models.generate_content(
            model=MODEL,
            contents="Who won the 2026 final?",
            config=types.GenerateContentConfig(tools=[tool]),
        )
    assert caught.value.code == 400 and f"built-in tool {name}" in caught.value.message


def test_usage_rides_on_every_stream_chunk_and_a_long_answer_comes_in_several(glass_box):
    prompt = (
        "The packing list reads: "
        + " ".join(f"item{i}" for i in range(40))
        + ". What does the packing list read?"
    )
    chunks = list(glass_box.models.generate_content_stream(model=MODEL, contents=prompt))
    whole = glass_box.models.generate_content(model=MODEL, contents=prompt)
    assert len(chunks) >= 3 and all(
        c.usage_metadata and c.usage_metadata.prompt_token_count for c in chunks
    )
    so_far = [c.usage_metadata.candidates_token_count or 0 for c in chunks]
    assert so_far == sorted(so_far) and so_far[-1] == whole.usage_metadata.candidates_token_count
    assert chunks[-1].usage_metadata.total_token_count == whole.usage_metadata.total_token_count
    assert "".join(c.text or "" for c in chunks) == whole.text


@pytest.mark.parametrize(
    "config, where",
    [
        (
            {"tool_config": {"function_calling_config": {"mode": "SOMETIMES"}}},
            "tool_config.function_calling_config.mode",
        ),
        ({"toolConfig": {"mode": "ANY"}}, "Unknown name \"mode\" at 'tool_config'"),
        (
            {
                "safetySettings": [
                    {"category": "HARM_CATEGORY_HARASSMENT", "threshold": "BLOCK_SOME"}
                ]
            },
            "safety_settings[0].threshold",
        ),
        (
            {
                "safetySettings": [
                    {"category": "HARM_CATEGORY_HARASSMENT", "threshold": "OFF", "level": 2}
                ]
            },
            "Unknown name \"level\" at 'safety_settings[0]'",
        ),
        (
            {
                "generationConfig": {
                    "responseMimeType": "application/json",
                    "responseSchema": {
                        "$schema": "http://json-schema.org/draft-07/schema#",
                        "type": "OBJECT",
                    },
                }
            },
            "Unknown name \"$schema\" at 'generation_config.response_schema'",
        ),
        (
            {
                "generationConfig": {
                    "responseSchema": {"type": "OBJECT", "additional_properties": False}
                }
            },
            "Unknown name \"additional_properties\" at 'generation_config.response_schema'",
        ),
        (
            {
                "generationConfig": {
                    "responseSchema": {"type": "OBJECT", "properties": {"a": {"type": "TEXT"}}}
                }
            },
            "generation_config.response_schema.properties['a'].type",
        ),
        (
            {
                "tools": [
                    {
                        "functionDeclarations": [
                            {
                                "name": "f",
                                "parameters": {"type": "object", "additionalProperties": False},
                            }
                        ]
                    }
                ]
            },
            (
                'Unknown name "additionalProperties" at'
                " 'tools[0].function_declarations[0].parameters'"
            ),
        ),
        (
            {"generationConfig": {"responseMimeType": "text/html"}},
            "allowed mimetypes are `text/plain`",
        ),
    ],
)
def test_every_nested_object_is_checked_as_gemini_checks_it(config, where):
    status, body = generate(
        json.dumps({"contents": [{"role": "user", "parts": [{"text": "Hi"}]}], **config}).encode()
    )
    assert status == 400 and where in body["error"]["message"], body


def test_the_forms_gemini_takes_are_taken():
    config = {
        "tool_config": {"function_calling_config": {"mode": "none", "allowed_function_names": []}},
        "safety_settings": [
            {"category": "HARM_CATEGORY_DANGEROUS_CONTENT", "threshold": "BLOCK_ONLY_HIGH"}
        ],
        "tools": [
            {
                "function_declarations": [
                    {
                        "name": "get_weather",
                        "description": "Weather of a city.",
                        "parameters": {
                            "type": "object",
                            "properties": {"user_city": {"type": "string", "max_length": "40"}},
                            "required": ["user_city"],
                        },
                    }
                ]
            }
        ],
        "generationConfig": {
            "responseMimeType": "application/json",
            "responseJsonSchema": {"$schema": "x", "type": "object", "additionalProperties": False},
        },
    }
    status, body = generate(
        json.dumps({"contents": [{"role": "user", "parts": [{"text": "Hi"}]}], **config}).encode()
    )
    assert status == 200, body


def test_inline_text_counts_as_its_text(glass_box):
    text = "Clause: goods ship within five working days of the order. " * 200
    inline = types.Part.from_bytes(data=text.encode(), mime_type="text/plain")
    as_bytes = glass_box.models.count_tokens(model=MODEL, contents=[inline]).total_tokens
    as_text = glass_box.models.count_tokens(model=MODEL, contents=text).total_tokens
    assert as_bytes == as_text > 1000


@pytest.mark.parametrize(
    "role, status", [("function", 200), ("tool", 200), ("assistant", 400), ("system", 400)]
)
def test_before_35_a_function_response_turn_may_say_role_function_or_tool(role, status):
    body = {
        "contents": [
            {"role": "user", "parts": [{"text": "List the files."}]},
            {
                "role": "model",
                "parts": [
                    {
                        "functionCall": {"name": "list_files", "args": {}},
                        "thoughtSignature": "skip_thought_signature_validator",
                    }
                ],
            },
            {
                "role": role,
                "parts": [{"functionResponse": {"name": "list_files", "response": {"files": []}}}],
            },
        ],
        "tools": [
            {"functionDeclarations": [{"name": "list_files", "description": "List the files."}]}
        ],
    }
    answered, reply = post(
        "/v1beta/models/gemini-3.1-flash-lite:generateContent", json.dumps(body).encode()
    )
    assert answered == status, reply
    if status == 400:
        assert reply["error"]["message"] == "Please use a valid role: user, model."


@pytest.mark.parametrize(
    "model", ["gemini-3.8-flash", "gemini-3.6-flash", "gemini-3.7-flash", "gemini-4-argon"]
)
@pytest.mark.parametrize("role", ["function", "tool"])
def test_from_35_on_a_function_response_under_role_function_or_tool_is_geminis_400(model, role):
    # [3P] blakeblackshear/frigate PR #24013 (2026-08-16) quotes this 400 from gemini-3.7-flash.
    body = {
        "contents": [
            {"role": "user", "parts": [{"text": "List the files."}]},
            {
                "role": "model",
                "parts": [
                    {
                        "functionCall": {"name": "list_files", "args": {}},
                        "thoughtSignature": "skip_thought_signature_validator",
                    }
                ],
            },
            {"role": role, "parts": [{"functionResponse": {"name": "list_files", "response": {}}}]},
        ]
    }
    answered, reply = post(f"/v1beta/models/{model}:generateContent", json.dumps(body).encode())
    assert answered == 400 and reply["error"]["message"].startswith(
        f"Role '{role}' is not supported. Please use"
    )
    body["contents"][2]["role"] = "user"
    assert post(f"/v1beta/models/{model}:generateContent", json.dumps(body).encode())[0] == 200

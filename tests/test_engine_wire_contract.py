"""The wire contract end to end: every malformed request is a 4xx with Google's JSON error body
(never a 5xx, an HTML page or a dropped connection), snake_case fields are read as proto JSON reads
them, a burst of connections is served, streams come in chunks, and JSON mode returns JSON.

Malformed requests go around the SDK (which never sends them), straight to the socket.
"""

import http.client
import json
import socket
import threading
from urllib.parse import urlparse

import pytest
from google.genai import types

from harness.engine import wire
from harness.engine.server import LISTEN_QUEUE, MAX_BODY_BYTES, ensure_running
from harness.engine.wire import MAX_DEPTH

MODEL = "gemini-3.8-flash"
PATH = f"/v1beta/models/{MODEL}:generateContent"
QUESTION = "The office opens at 8 am and closes at 6 pm on weekdays. When does the office open?"


KEY = {"x-goog-api-key": "offline"}  # any key will do; the glass box refuses none (403)


def connection() -> http.client.HTTPConnection:
    url = urlparse(ensure_running())
    return http.client.HTTPConnection(url.hostname, url.port, timeout=20)


def send(body, path=PATH, method="POST", headers=None):
    """(status, parsed JSON body) of one raw request; the body may be bytes, str or a JSON value."""
    raw = (
        body
        if isinstance(body, bytes)
        else (body if isinstance(body, str) else json.dumps(body)).encode()
    )
    conn = connection()
    conn.request(
        method,
        path,
        body=raw,
        headers={"Content-Type": "application/json", **KEY, **(headers or {})},
    )
    response = conn.getresponse()
    data = response.read()
    conn.close()
    return response.status, (json.loads(data) if data else None)


def assert_json_error(status, payload, code=400):
    assert status == code, payload
    error = payload["error"]
    assert set(error) >= {"code", "message", "status"} and error["code"] == code
    return error["message"]


def question(**extra):
    return {"contents": [{"role": "user", "parts": [{"text": QUESTION}]}], **extra}


@pytest.mark.parametrize(
    "body, where",
    [
        ({"contents": 1.0}, "Invalid value at 'contents'"),
        ({"contents": "hello"}, "Invalid value at 'contents'"),
        (
            {"contents": [{"parts": [{"text": 5}]}]},
            "Invalid value at 'contents[0].parts[0].text' (TYPE_STRING), 5",
        ),
        (
            {"contents": [{"parts": [{"text": "hi"}]}], "generationConfig": [1]},
            "Proto field is not repeating",
        ),
        (
            {"contents": [{"parts": [{"text": "hi"}]}], "generationConfig": {"temperature": "hot"}},
            "(TYPE_FLOAT)",
        ),
        (
            {
                "contents": [{"parts": [{"text": "hi"}]}],
                "generationConfig": {"maxOutputTokens": True},
            },
            "(TYPE_INT32)",
        ),
    ],
)
def test_wrong_json_types_are_a_400_naming_the_field(glass_box, body, where):
    assert where in assert_json_error(*send(body))


def test_a_misspelt_field_is_geminis_unknown_name_400(glass_box):
    message = assert_json_error(*send({"contnets": [{"parts": [{"text": "hi"}]}]}))
    assert message == 'Invalid JSON payload received. Unknown name "contnets": Cannot find field.'
    nested = assert_json_error(*send(question(generationConfig={"temprature": 0.2})))
    assert (
        nested
        == "Invalid JSON payload received. Unknown name \"temprature\" at 'generation_config': "
        "Cannot find field."
    )


def test_count_tokens_reads_fields_the_same_way(glass_box):
    status, payload = send({"contnets": []}, path=f"/v1beta/models/{MODEL}:countTokens")
    assert "Unknown name" in assert_json_error(status, payload)


def test_snake_case_fields_are_read_as_the_real_api_reads_them(glass_box):
    camel = question(
        systemInstruction={"parts": [{"text": "Answer from the context."}]},
        generationConfig={"maxOutputTokens": 200, "thinkingConfig": {"thinkingLevel": "LOW"}},
    )
    snake = {
        "contents": [{"role": "user", "parts": [{"text": QUESTION}]}],
        "system_instruction": {"parts": [{"text": "Answer from the context."}]},
        "generation_config": {
            "max_output_tokens": 200,
            "thinking_config": {"thinking_level": "LOW"},
        },
    }
    assert send(camel) == send(snake)
    assert send(camel)[0] == 200


def test_snake_case_tools_and_inline_data_are_read_too(glass_box):
    def request(declarations, image, **tools):
        parts = [
            {"text": "Call read_file for 'README.md'."},
            {image: {"mimeType": "image/png", "data": "iVBORw0K"}},
        ]
        return {
            "contents": [{"role": "user", "parts": parts}],
            **(
                {
                    "tools": [
                        {
                            declarations: [
                                {
                                    "name": "read_file",
                                    "description": "Read a file",
                                    "parameters": {
                                        "type": "OBJECT",
                                        "properties": {"path": {"type": "STRING"}},
                                    },
                                }
                            ]
                        }
                    ]
                }
                if tools
                else {}
            ),
        }

    snake = send(request("function_declarations", "inline_data", tools=True))
    camel = send(request("functionDeclarations", "inlineData", tools=True))
    assert snake == camel and snake[0] == 200
    # the tools were read, not dropped
    call = snake[1]["candidates"][0]["content"]["parts"][0]["functionCall"]
    assert call["name"] == "read_file"
    image = send(request("functionDeclarations", "inlineData"))[1]["usageMetadata"][
        "promptTokenCount"
    ]
    # the inline_data part was read (it costs its marker)
    assert (
        image
        > send({"contents": [{"parts": [{"text": "Call read_file for 'README.md'."}]}]})[1][
            "usageMetadata"
        ]["promptTokenCount"]
    )


def test_deep_nesting_is_a_400_not_a_crash(glass_box):
    body = (
        b'{"contents": [{"parts": [{"text": "hi"}]}], "labels": '
        + b"[" * 50_000
        + b"]" * 50_000
        + b"}"
    )
    assert "nests" in assert_json_error(*send(body))


def test_a_lone_surrogate_is_a_400(glass_box):
    body = b'{"contents": [{"parts": [{"text": "bad \\ud800 text"}]}]}'
    assert "surrogate" in assert_json_error(*send(body))


def test_a_body_that_is_not_utf8_is_a_400(glass_box):
    assert "not UTF-8" in assert_json_error(*send(b'{"contents": "\xff\xfe"}'))


@pytest.mark.parametrize("length", ["abc", "-5", "1e3"])
def test_a_content_length_that_is_not_a_number_is_a_400_json(glass_box, length):
    conn = connection()
    conn.putrequest("POST", PATH)
    conn.putheader("Content-Length", length)
    conn.endheaders()
    response = conn.getresponse()
    message = assert_json_error(response.status, json.loads(response.read()))
    assert "Content-Length" in message
    conn.close()


def test_a_chunked_body_is_read(glass_box):
    conn = connection()
    body = json.dumps(question()).encode()
    conn.request(
        "POST",
        PATH,
        body=iter([body[:10], body[10:]]),
        headers={"Content-Type": "application/json", **KEY},
        encode_chunked=True,
    )
    response = conn.getresponse()
    assert (
        response.status == 200
        and "8 am" in json.loads(response.read())["candidates"][0]["content"]["parts"][0]["text"]
    )
    conn.close()


def test_a_body_over_the_size_limit_is_a_400_and_the_connection_goes_on(glass_box):
    conn = connection()
    conn.request(
        "POST",
        PATH,
        body=b" " * (MAX_BODY_BYTES + 1),
        headers={"Content-Type": "application/json", **KEY},
    )
    response = conn.getresponse()
    message = assert_json_error(response.status, json.loads(response.read()))
    assert message == f"Request payload size exceeds the limit: {MAX_BODY_BYTES} bytes."
    conn.request("POST", PATH, body=json.dumps(question()).encode(), headers=KEY)
    assert conn.getresponse().status == 200
    conn.close()


@pytest.mark.parametrize("method", ["PUT", "OPTIONS", "TRACE", "BREW"])
def test_other_http_methods_are_a_405_json(glass_box, method):
    assert "not allowed" in assert_json_error(*send(b"", method=method), code=405)


def test_head_gets_a_405_without_a_body(glass_box):
    conn = connection()
    conn.request("HEAD", PATH)
    response = conn.getresponse()
    assert response.status == 405 and response.read() == b""
    conn.close()


def test_a_garbled_request_line_is_a_json_400_not_html(glass_box):
    url = urlparse(ensure_running())
    with socket.create_connection((url.hostname, url.port), timeout=20) as sock:
        sock.sendall(b"THIS IS NOT HTTP\r\n\r\n")
        # the server closes the connection after its answer
        reply = sock.makefile("rb").read().decode()
    head, _, body = reply.partition("\r\n\r\n")
    assert head.startswith("HTTP/1.1 400") and "application/json" in head
    assert json.loads(body)["error"]["code"] == 400


def test_no_hostile_body_gets_a_5xx(glass_box):
    bodies = [
        b"[]",
        b"null",
        b'"text"',
        b"{}",
        b'{"contents": []}',
        b'{"contents": [null]}',
        b'{"contents": [{"parts": null}]}',
        b'{"contents": [{"parts": [null]}]}',
        b'{"contents": [{"role": 7, "parts": [{"text": "x"}]}]}',
        b'{"contents": [{"parts": [{"functionCall": "read"}]}]}',
        (
            b'{"contents": [{"parts": [{"text": "x"}]}], "tools": [{"functionDeclarations":'
            b' {"name": 1}}]}'
        ),
        b'{"contents": [{"parts": [{"text": "x"}]}], "generationConfig": {"stopSequences": [1]}}',
        (
            b'{"contents": [{"parts": [{"text": "x"}]}], "generationConfig": {"thinkingConfig":'
            b' {"thinkingLevel": "LOUD"}}}'
        ),
        b'{"contents": [{"parts": [{"text": "x"}]}], "cachedContent": 5}',
    ]
    for body in bodies:
        status, payload = send(body)
        assert 400 <= status < 500 and "error" in payload, (body, status, payload)
    status, payload = send(b'{"model": 1, "contents": 1}', path="/v1beta/cachedContents")
    assert 400 <= status < 500 and "error" in payload


def test_the_listen_queue_holds_a_classroom_burst():
    assert LISTEN_QUEUE >= 64  # socketserver's default of 5 made 22 of 320 raw requests hang 20 s


def test_a_burst_of_64_simultaneous_connections_is_served(glass_box):
    url = urlparse(ensure_running())
    body = json.dumps(question()).encode()
    request = (
        f"POST {PATH} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nx-goog-api-key:"
        f" offline\r\nConnection: close\r\nContent-Length: {len(body)}\r\n\r\n"
    ).encode() + body
    barrier, statuses = threading.Barrier(64), []

    def one():
        barrier.wait()
        with socket.create_connection((url.hostname, url.port), timeout=10) as sock:
            sock.sendall(request)
            statuses.append(sock.makefile("rb").readline())

    threads = [threading.Thread(target=one) for _ in range(64)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(statuses) == 64 and all(line.startswith(b"HTTP/1.1 200") for line in statuses)


def test_streaming_sends_several_chunks_with_usage_on_each(glass_box):
    chunks = list(glass_box.models.generate_content_stream(model=MODEL, contents=QUESTION))
    whole = glass_box.models.generate_content(model=MODEL, contents=QUESTION)
    assert len(chunks) > 1
    assert "".join(chunk.text for chunk in chunks) == whole.text
    assert all(
        chunk.usage_metadata.prompt_token_count == whole.usage_metadata.prompt_token_count
        for chunk in chunks
    )
    assert chunks[-1].usage_metadata.total_token_count == whole.usage_metadata.total_token_count
    assert chunks[-1].candidates[0].finish_reason == types.FinishReason.STOP
    assert all(chunk.candidates[0].finish_reason is None for chunk in chunks[:-1])


def test_streaming_without_sse_is_one_json_array(glass_box):
    status, payload = send(question(), path=f"/v1beta/models/{MODEL}:streamGenerateContent")
    assert status == 200 and isinstance(payload, list) and len(payload) > 1
    assert all("usageMetadata" in chunk for chunk in payload)  # as Gemini sends it: on every chunk


def json_reply(client, **config):
    reply = client.models.generate_content(
        model=MODEL,
        contents=QUESTION,
        config=types.GenerateContentConfig(response_mime_type="application/json", **config),
    )
    return json.loads(reply.text)


def test_json_mode_without_a_schema_returns_json_holding_the_answer(glass_box):
    assert "8 am" in json_reply(glass_box)["answer"]


def test_json_mode_fits_a_response_schema_with_the_answer_in_its_strings(glass_box):
    schema = {
        "type": "OBJECT",
        "properties": {
            "opening": {"type": "STRING"},
            "days": {"type": "INTEGER"},
            "open_now": {"type": "BOOLEAN"},
            "notes": {"type": "ARRAY", "items": {"type": "STRING"}},
        },
    }
    value = json_reply(glass_box, response_schema=schema)
    assert list(value) == ["opening", "days", "open_now", "notes"]
    # an array has at least one item: a numbered label when the prompt lists nothing (the glass
    # box's rule)
    assert (
        "8 am" in value["opening"]
        and value["days"] == 0
        and value["open_now"] is False
        and value["notes"] == ["Note 1"]
    )


def test_json_mode_reads_a_json_schema_with_refs_and_enums(glass_box):
    schema = {
        "type": "object",
        "$defs": {"Hours": {"type": "object", "properties": {"opens": {"type": "string"}}}},
        "properties": {
            "hours": {"$ref": "#/$defs/Hours"},
            "part": {"enum": ["evening", "am"]},
            "note": {"type": ["string", "null"]},
        },
    }
    value = json_reply(glass_box, response_json_schema=schema)
    assert "8 am" in value["hours"]["opens"] and value["part"] == "am" and "8 am" in value["note"]


def test_json_mode_parses_into_the_sdks_pydantic_model(glass_box):
    from pydantic import BaseModel

    class Opening(BaseModel):
        answer: str
        certain: bool

    reply = glass_box.models.generate_content(
        model=MODEL,
        contents=QUESTION,
        config=types.GenerateContentConfig(
            response_mime_type="application/json", response_schema=Opening
        ),
    )
    assert isinstance(reply.parsed, Opening) and "8 am" in reply.parsed.answer


FUZZ_BASES = [  # an agent step (tools, a signed call, its response) and a JSON-mode question
    {
        "contents": [
            {"role": "user", "parts": [{"text": "Fix the failing tests."}]},
            {
                "role": "model",
                "parts": [
                    {
                        "functionCall": {"name": "list_files", "args": {"path": "."}},
                        "thoughtSignature": "abcd",
                    }
                ],
            },
            {
                "role": "user",
                "parts": [
                    {"functionResponse": {"name": "list_files", "response": {"output": "a.py"}}}
                ],
            },
        ],
        "systemInstruction": {"parts": [{"text": "Be brief."}]},
        "tools": [
            {
                "functionDeclarations": [
                    {
                        "name": name,
                        "description": name,
                        "parameters": {
                            "type": "OBJECT",
                            "properties": {"path": {"type": "STRING"}},
                        },
                    }
                    for name in ("list_files", "read_file")
                ]
            }
        ],
        "generationConfig": {
            "maxOutputTokens": 50,
            "stopSequences": ["x"],
            "temperature": 1.0,
            "thinkingConfig": {"includeThoughts": True, "thinkingLevel": "LOW"},
        },
    },
    {
        "contents": [{"role": "user", "parts": [{"text": QUESTION}]}],
        "generationConfig": {
            "responseMimeType": "application/json",
            "responseSchema": {
                "type": "OBJECT",
                "properties": {
                    "a": {"type": "STRING", "enum": ["x"]},
                    "b": {"type": "ARRAY", "items": {"type": "STRING"}, "minItems": 1},
                },
            },
        },
    },
]
FUZZ_VALUES = [None, 1, -1, 1.5, "x", "", [], {}, True, [1], {"a": 1}]


def _leaves(value, path=()):
    yield path
    children = (
        value.items()
        if isinstance(value, dict)
        else enumerate(value)
        if isinstance(value, list)
        else ()
    )
    for key, child in children:
        yield from _leaves(child, path + (key,))


def test_no_value_anywhere_in_a_request_gets_a_5xx():
    # every field of two realistic requests replaced in turn by each JSON type: a 200 or a 4xx,
    # never a 5xx
    import copy

    from harness.engine.server import glass_box as answer

    broken = []
    for base in FUZZ_BASES:
        for path in list(_leaves(base))[1:]:
            for value in FUZZ_VALUES:
                body = copy.deepcopy(base)
                target = body
                for key in path[:-1]:
                    target = target[key]
                target[path[-1]] = value
                for action in ("generateContent", "countTokens"):
                    try:
                        status = answer(
                            "POST",
                            f"/v1beta/models/{MODEL}:{action}",
                            "",
                            json.dumps(body).encode(),
                        )[0]
                    except Exception as err:  # what the HTTP handler would turn into a 500
                        status = f"{type(err).__name__}: {err}"
                    if not isinstance(status, int) or status >= 500:
                        broken.append((path, value, action, status))
    assert not broken, broken[:5]


def _nested(levels: int):
    value = "leaf"
    for level in range(levels):
        value = [value] if level % 2 else {"k": value, "n": 1}
    return value


@pytest.mark.parametrize("levels", [0, 1, 2, 7, MAX_DEPTH, MAX_DEPTH + 1])
def test_the_depth_counts_each_level_of_objects_and_lists(levels):
    assert wire._depth(_nested(levels)) == levels
    assert wire._depth([1, {"a": _nested(levels)}, []]) == levels + 2

"""No byte string gets a 5xx from the glass box, on any route (issue 29, point 4).

Three kinds of hostile body go to every route the glass box serves: random bytes, random JSON
values, and valid requests with one value replaced, at every path of the body, by a value of another
JSON type. Each must get a 2xx or a 4xx in the shape of the route's API, never an exception (which
the HTTP handler would answer with a 500). Inputs come from fixed seeds, so a failure repeats.
"""

import copy
import json
import random

import pytest

from harness.engine.cache import reset_cache
from harness.engine.server import glass_box

MODEL = "gemini-3.8-flash"
EMBEDDER = "gemini-embedding-001"
V = "/v1beta/"
CONTENTS = [{"role": "user", "parts": [{"text": "My dog is called Rex. What is my dog called?"}]}]
# An explicit cache needs the model's minimum (4,096 tokens for this one).
LONG = [{"role": "user", "parts": [{"text": "Rex likes long walks in the park. " * 700}]}]
# Values of every JSON type, and the edges of each: what a hostile client puts where a field goes.
HOSTILE = [
    None,
    0,
    -1,
    2**70,
    1e308,
    True,
    "",
    "x",
    "\ud800",
    "NaN",
    "-5s",
    [],
    [[]],
    [None],
    {},
    {"a": {"b": []}},
    ["x"],
    [{}],
]


def _send(method: str, path: str, query: str = "", body=b"") -> tuple[int, object]:
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    status, content_type, answer, *_ = glass_box(method, path, query, raw)
    if status >= 400:
        return status, json.loads(answer)
    return status, answer


def _made(path: str, body: dict, key: str) -> str:
    status, answer = _send("POST", path, "", body)
    assert status == 200, answer
    return json.loads(answer)[key]


@pytest.fixture(scope="module")
def routes() -> list[tuple[str, str, str, dict | None]]:
    """(method, path, query, a valid body or None) for every route of the glass box."""
    reset_cache()
    generate = {
        "contents": CONTENTS,
        "systemInstruction": {"parts": [{"text": "Be brief."}]},
        "tools": [
            {
                "functionDeclarations": [
                    {
                        "name": "walk",
                        "description": "Walks a dog.",
                        "parameters": {"type": "OBJECT", "properties": {"dog": {"type": "STRING"}}},
                    }
                ]
            }
        ],
        "toolConfig": {"functionCallingConfig": {"mode": "AUTO"}},
        "safetySettings": [{"category": "HARM_CATEGORY_HARASSMENT", "threshold": "BLOCK_NONE"}],
        "generationConfig": {
            "maxOutputTokens": 40,
            "temperature": 0.5,
            "stopSequences": ["."],
            "responseMimeType": "application/json",
            "responseSchema": {"type": "OBJECT", "properties": {"name": {"type": "STRING"}}},
            "thinkingConfig": {"thinkingLevel": "LOW"},
        },
    }
    cache = {"model": f"models/{MODEL}", "contents": LONG, "ttl": "300s", "displayName": "dogs"}
    cached = _made(V + "cachedContents", cache, "name")
    first = _made(V + "interactions", {"model": MODEL, "input": "My dog is called Rex."}, "id")
    interaction = {
        "model": MODEL,
        "previous_interaction_id": first,
        "system_instruction": "Be brief.",
        "input": [{"type": "text", "text": "What is my dog called?"}],
        "tools": [{"type": "function", "name": "walk", "parameters": {"type": "object"}}],
        "generation_config": {"temperature": 0.2, "thinking_level": "low", "tool_choice": "auto"},
        "response_format": {"type": "text", "mime_type": "application/json"},
    }
    chat = {
        "model": MODEL,
        "max_tokens": 30,
        "stop": ["."],
        "tool_choice": "auto",
        "messages": [
            {"role": "system", "content": "Be brief."},
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "Hi"},
                    {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}},
                ],
            },
        ],
        "tools": [
            {"type": "function", "function": {"name": "walk", "parameters": {"type": "object"}}}
        ],
    }
    embed = {"content": {"parts": [{"text": "dogs"}]}, "outputDimensionality": 8}
    return [
        ("POST", V + f"models/{MODEL}:generateContent", "", generate),
        ("POST", V + f"models/{MODEL}:streamGenerateContent", "alt=sse", generate),
        ("POST", V + f"models/{MODEL}:countTokens", "", {"contents": CONTENTS}),
        (
            "POST",
            V + f"models/{MODEL}:countTokens",
            "",
            {"generateContentRequest": dict(generate, model=f"models/{MODEL}")},
        ),
        ("POST", V + f"models/{EMBEDDER}:embedContent", "", embed),
        (
            "POST",
            V + f"models/{EMBEDDER}:batchEmbedContents",
            "",
            {"requests": [dict(embed, model=f"models/{EMBEDDER}")]},
        ),
        ("GET", V + "models", "pageSize=2", None),
        ("GET", V + f"models/{MODEL}", "", None),
        ("POST", V + "cachedContents", "", cache),
        ("GET", V + "cachedContents", "pageSize=2", None),
        ("GET", V + cached, "", None),
        ("PATCH", V + cached, "", {"ttl": "600s"}),
        ("DELETE", V + "cachedContents/glassbox999999", "", None),
        ("POST", V + "interactions", "", interaction),
        ("GET", V + f"interactions/{first}", "stream=true", None),
        ("POST", V + f"interactions/{first}/cancel", "", {}),
        ("DELETE", V + "interactions/v1_never_made", "", None),
        ("POST", "/v1beta/openai/chat/completions", "", chat),
        ("POST", "/v1beta/openai/embeddings", "", {"model": EMBEDDER, "input": ["dogs", "cats"]}),
        ("GET", "/v1beta/openai/models", "", None),
        ("GET", "/v1/nowhere", "", None),
    ]


def _assert_answered(status: int, answer, path: str, what: str) -> None:
    assert status < 500, f"{path} answered {status} to {what}: {answer}"
    if status >= 400:  # an error in the shape of the path's API
        error = answer[0]["error"] if path.startswith("/v1beta/openai/") else answer["error"]
        assert error["message"], f"{path}: an error with no message, for {what}"


def _paths(value, at=()):
    """Every path into a JSON value, the root included."""
    yield at
    items = (
        value.items()
        if isinstance(value, dict)
        else enumerate(value)
        if isinstance(value, list)
        else []
    )
    for key, item in items:
        yield from _paths(item, at + (key,))


def _replaced(body, at: tuple, new):
    if not at:
        return new
    out = copy.deepcopy(body)
    holder = out
    for key in at[:-1]:
        holder = holder[key]
    holder[at[-1]] = new
    return out


def _random_json(rng: random.Random, depth: int = 0):
    kind = rng.randrange(7 if depth < 4 else 4)
    if kind == 0:
        return rng.choice([None, True, False])
    if kind == 1:
        return rng.choice([0, -1, 7, 2**64, 0.5, -1e300])
    if kind in (2, 3):
        return "".join(rng.choice('ab "\\é\ud800{}[]:0') for _ in range(rng.randrange(6)))
    if kind in (4, 5):
        return {
            rng.choice(["contents", "model", "input", "parts", "text", "x"]): _random_json(
                rng, depth + 1
            )
            for _ in range(rng.randrange(4))
        }
    return [_random_json(rng, depth + 1) for _ in range(rng.randrange(4))]


def test_random_bytes_get_a_4xx_on_every_route(routes):
    rng = random.Random(29)
    for method, path, query, _ in routes:
        for raw in [b"\xff\xfe", b"\xef\xbb\xbf{}", b"{", b"[]", b"nul", b"\x00"] + [
            bytes(rng.randrange(256) for _ in range(rng.randrange(1, 16))) for _ in range(20)
        ]:
            status, answer = _send(method, path, query, raw)
            _assert_answered(status, answer, path, f"bytes {raw!r}")
            assert status < 500 and (status >= 400 or raw.strip() in (b"{}", b"")), (
                path,
                raw,
                status,
            )


def test_random_json_never_gets_a_5xx(routes):
    rng = random.Random(4)
    for method, path, query, _ in routes:
        for _ in range(25):
            value = _random_json(rng)
            status, answer = _send(method, path, query, value)
            _assert_answered(status, answer, path, f"JSON {json.dumps(value)[:120]}")


def test_a_value_of_another_type_at_any_path_never_gets_a_5xx(routes):
    rng = random.Random(26)
    for method, path, query, body in routes:
        for at in list(_paths(body)) if body is not None else []:
            for new in rng.sample(HOSTILE, 4):
                status, answer = _send(method, path, query, _replaced(body, at, new))
                _assert_answered(status, answer, path, f"{'.'.join(map(str, at))} = {new!r}")


def test_a_wrong_type_is_a_400_that_names_its_path(routes):
    interaction = next(body for _, path, _, body in routes if path.endswith("/interactions"))
    status, answer = _send(
        "POST", V + "interactions", "", _replaced(interaction, ("tools", 0, "type"), 7)
    )
    assert status == 400 and "tools[0].type" in answer["error"]["message"]
    chat = next(body for _, path, _, body in routes if path.endswith("chat/completions"))
    status, answer = _send(
        "POST",
        "/v1beta/openai/chat/completions",
        "",
        _replaced(chat, ("messages", 1, "content", 1, "image_url"), "x"),
    )
    assert status == 400 and "messages[1].content[1].image_url" in answer[0]["error"]["message"]

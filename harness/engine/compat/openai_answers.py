"""The OpenAI-compatible endpoint's routes and answers: chat completions, streamed chunks, models,
embeddings, and errors, shaped as Gemini's `/v1beta/openai/` shapes them.

    POST chat/completions   a `chat.completion`, or with "stream": true server-sent
                            `chat.completion.chunk` events ending `data: [DONE]`
    GET  models, models/{id}   the glass box's models as OpenAI `model` objects ("id": "models/...")
    POST embeddings         vectors from embeddings.py (`encoding_format` float or base64)

Shapes, as reported of Gemini's endpoint ([3P], 2025-2026): an error is a JSON *list* holding
Google's error object, `[{"error": {"code": 400, "message": ..., "status": "INVALID_ARGUMENT"}}]`
(openai.BadRequestError messages quoted in public code); usage is `prompt_tokens` (cached included),
`completion_tokens` (the answer), `total_tokens` (thoughts included) and
`prompt_tokens_details.cached_tokens` (openai/openai-python #2544); a stream carries `usage` on
every chunk, the answer's so far, the whole on the last, which holds `finish_reason`, with no
separate usage chunk (ogx-ai/ogx #5122, envoyproxy/ai-gateway #1503); a tool call's signature is
`extra_content.google.thought_signature` ([OFF] docs/thought-signatures). Glass-box choices:
`created` is 0 and `id` a hash of the request, so the same request gets the same answer;
`completion_tokens_details.reasoning_tokens` carries the thoughts; streamed tool calls carry `index`
(some clients need it; Gemini's are reported without it).
"""

import hashlib
import json

from harness.engine.compat.openai_compat import call_id, chat_to_generate, unknown
from harness.engine.embeddings import (
    EMBEDDING_MODELS,
    MAX_BATCH,
    as_base64,
    check_model,
    content_vector,
    dimensions_of,
)
from harness.engine.fields import _object, _one_of, _repeated, normalise
from harness.engine.models_api import list_models
from harness.engine.streaming import chunks
from harness.engine.wire import WireError, invalid, resolve_model
from harness.tokens import approx_tokens

PREFIX = "/v1beta/openai/"
JSON_TYPE = "application/json; charset=UTF-8"
FINISH = {
    "STOP": "stop",
    "MAX_TOKENS": "length",
    "SAFETY": "content_filter",
    "RECITATION": "content_filter",
}
EMBEDDING_FIELDS = ("model", "input", "encoding_format", "dimensions", "user")
EMBEDDINGS = _object(
    "EmbeddingsRequest",
    model="string",
    encoding_format="string",
    input=_one_of("string", _repeated("string")),
    dimensions="int",
    user="string",
)
# NOTE: the endpoint's own limit on `input` is published nowhere we found (docs and issues searched,
# 2026-12-03); it is served by Gemini's batchEmbedContents, whose 100-request limit it takes here.
TOO_MANY_INPUTS = (
    "* input: at most {limit} inputs can be embedded in one request, got {count}; "
    "send them in batches of {limit}."
)


def _usage(metadata: dict) -> dict:
    usage = {
        "prompt_tokens": metadata.get("promptTokenCount", 0),
        "completion_tokens": metadata.get("candidatesTokenCount", 0),
        "total_tokens": metadata.get("totalTokenCount", 0),
    }
    if metadata.get("cachedContentTokenCount"):
        usage["prompt_tokens_details"] = {"cached_tokens": metadata["cachedContentTokenCount"]}
    if metadata.get("thoughtsTokenCount"):
        usage["completion_tokens_details"] = {"reasoning_tokens": metadata["thoughtsTokenCount"]}
    return usage


def _message(parts: list, first_call: int = 0) -> dict:
    """An assistant message (or a delta) for Gemini parts: function calls as tool_calls, thought
    parts in the content before the answer, in <thought> tags ([3P] the endpoint puts thought
    summaries in the content, BerriAI/litellm #11188, 2025; the tag is as remembered of the docs,
    not re-checked here).
    """
    text = "".join(
        f"<thought>{p['text']}</thought>" if p.get("thought") else p["text"]
        for p in parts
        if "text" in p
    )
    calls = []
    for position, part in enumerate((p for p in parts if "functionCall" in p), start=first_call):
        function = part["functionCall"]
        call = {
            "id": call_id(function, position),
            "type": "function",
            "function": {"name": function["name"], "arguments": json.dumps(function["args"])},
        }
        if part.get("thoughtSignature"):
            call["extra_content"] = {"google": {"thought_signature": part["thoughtSignature"]}}
        calls.append(call)
    message = {"role": "assistant", "content": text or None}
    if calls:
        message["tool_calls"] = calls
    return message


def _finish(candidate: dict, has_calls: bool) -> str:
    reason = FINISH.get(candidate.get("finishReason"), "stop")
    return "tool_calls" if has_calls and reason == "stop" else reason


def _shell(chat: dict, response: dict, kind: str) -> dict:
    digest = hashlib.sha256(json.dumps(chat, sort_keys=True).encode()).hexdigest()[:24]
    return {
        "id": f"chatcmpl-{digest}",
        "object": kind,
        "created": 0,
        "model": response.get("modelVersion", ""),
    }


def completion(chat: dict, response: dict) -> dict:
    """A `chat.completion` for Gemini's `response` to the translated `chat`."""
    choices = []
    for candidate in response.get("candidates") or []:
        message = _message(candidate.get("content", {}).get("parts") or [])
        choices.append(
            {
                "index": candidate.get("index", 0),
                "message": message,
                "finish_reason": _finish(candidate, "tool_calls" in message),
            }
        )
    return dict(
        _shell(chat, response, "chat.completion"),
        choices=choices,
        usage=_usage(response.get("usageMetadata") or {}),
    )


def _delta(candidate: dict, calls_sent: int, first: bool) -> dict:
    """A streamed piece of one candidate as a `delta`; tool calls numbered on from `calls_sent`."""
    delta = _message(candidate.get("content", {}).get("parts") or [], calls_sent)
    for index, call in enumerate(delta.get("tool_calls") or [], start=calls_sent):
        call["index"] = index
    if delta["content"] is None:
        delta.pop("content")
    if not first:
        delta.pop("role")
    return delta


def stream(chat: dict, response: dict) -> bytes:
    """The answer as server-sent `chat.completion.chunk` events, usage on each, then `data: [DONE]`.
    Each event holds one choice per candidate that has a piece in it (n > 1 streams them side by
    side).
    """
    events, calls_sent = [], {}
    for piece in chunks(response):
        choices = []
        for candidate in piece["candidates"]:
            index = candidate.get("index", 0)
            delta = _delta(candidate, calls_sent.get(index, 0), index not in calls_sent)
            calls_sent[index] = calls_sent.get(index, 0) + len(delta.get("tool_calls") or [])
            finish = (
                _finish(candidate, calls_sent[index] > 0) if candidate.get("finishReason") else None
            )
            choices.append({"index": index, "delta": delta, "finish_reason": finish})
        events.append(
            dict(
                _shell(chat, response, "chat.completion.chunk"),
                choices=choices,
                usage=_usage(piece.get("usageMetadata") or {}),
            )
        )
    lines = [
        b"data: " + json.dumps(event, ensure_ascii=False).encode() + b"\n\n" for event in events
    ]
    return b"".join(lines) + b"data: [DONE]\n\n"


def _model_object(name: str) -> dict:
    return {"id": name, "object": "model", "created": 0, "owned_by": "google"}


def models() -> dict:
    chat = [model["name"] for model in list_models("1000", "", "v1beta")["models"]]
    # models.list has them too
    listed = dict.fromkeys(chat + [f"models/{name}" for name in EMBEDDING_MODELS])
    return {"object": "list", "data": [_model_object(name) for name in listed]}


def model(name: str) -> dict:
    asked = name.removeprefix("models/")
    if asked not in EMBEDDING_MODELS:
        resolve_model(asked, "v1beta", "get")
    return _model_object(f"models/{asked}")


def embeddings(request: dict) -> dict:
    """An OpenAI `list` of embeddings for `input` (a string or a list of strings)."""
    for name in request:
        if name not in EMBEDDING_FIELDS:
            raise unknown(name)
    request = normalise(request, EMBEDDINGS)
    model = check_model(str(request.get("model") or ""), "v1beta", "embedContent")
    texts = (
        [request.get("input")] if isinstance(request.get("input"), str) else request.get("input")
    )
    if not texts or not all(isinstance(text, str) and text for text in texts):
        raise invalid(
            "* input: input must be a non-empty string or a list of them (the glass box reads no "
            "token ids)."
        )
    if len(texts) > MAX_BATCH:
        raise invalid(TOO_MANY_INPUTS.format(limit=MAX_BATCH, count=len(texts)))
    size = dimensions_of(request.get("dimensions"), "dimensions")
    packed = request.get("encoding_format") == "base64"
    vectors = [
        content_vector({"parts": [{"text": text}]}, model, size, f"input[{i}]")
        for i, text in enumerate(texts)
    ]
    data = [
        {"object": "embedding", "index": i, "embedding": as_base64(vector) if packed else vector}
        for i, vector in enumerate(vectors)
    ]
    tokens = sum(approx_tokens(text) for text in texts)
    return {
        "object": "list",
        "data": data,
        "model": f"models/{model.id}",
        "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
    }


def error(err: WireError) -> list:
    """An error as the endpoint shapes it: a JSON list holding Google's error object."""
    return [err.body()]


def serve(method: str, path: str, body: dict, generate) -> tuple[int, str, bytes]:
    """(status, content type, body) for a request under PREFIX, its body already decoded; `generate`
    is the server's own."""
    rest = path.removeprefix(PREFIX)
    try:
        if rest == "chat/completions" and method == "POST":
            chat = body
            response = generate(str(chat.get("model") or ""), chat_to_generate(chat), "v1beta")
            if chat.get("stream"):
                return 200, "text/event-stream", stream(chat, response)
            payload = completion(chat, response)
        elif rest == "models" and method == "GET":
            payload = models()
        elif rest.startswith("models/") and method == "GET":
            payload = model(rest.removeprefix("models/"))
        elif rest == "embeddings" and method == "POST":
            payload = embeddings(body)
        else:
            raise WireError(
                404,
                "NOT_FOUND",
                f"The glass box's OpenAI-compatible endpoint does not serve {method} {path}: it"
                f" answers POST chat/completions, GET models and POST embeddings under {PREFIX}.",
            )
    except WireError as err:
        return err.code, JSON_TYPE, json.dumps(error(err)).encode()
    return 200, JSON_TYPE, json.dumps(payload, ensure_ascii=False).encode()

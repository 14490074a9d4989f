"""The glass box on loopback: the routes of the Gemini REST API, served to the unmodified SDK.

    base_url = ensure_running()          # e.g. 'http://127.0.0.1:40533', the same on every call
    client = genai.Client(api_key="offline", http_options=types.HttpOptions(base_url=base_url))
    # (harness.connect() does exactly this when it runs offline)

Routes (under /v1/ and /v1beta/ alike):

    POST   models/{model}:generateContent        answer, with honest usageMetadata
    POST   models/{model}:streamGenerateContent  the same answer in several chunks (?alt=sse: events)
    POST   models/{model}:countTokens            {"totalTokens": N}
    POST   models/{model}:embedContent, :batchEmbedContents   meaning-table vectors (embeddings.py)
    GET    models, models/{model}                the table of harness/models.py, as Model resources
    POST   cachedContents                        create an explicit cache
    GET    cachedContents                        list them
    GET | PATCH | DELETE  cachedContents/{id}    read, change the ttl, delete
    POST   interactions, GET | DELETE interactions/{id}, POST interactions/{id}/cancel
                                          the Interactions API (interactions.py; streams: interaction_events.py)
    /v1beta/openai/: chat/completions, models, embeddings   the OpenAI-compatible endpoint (compat/)

A generateContent request goes through, in order: its fields read as proto JSON reads them
(fields.py), the generation settings' ranges and the thinking asked (limits.py, thinking.py), the
contents' turn order and thought signatures (wire.py, signatures.py), the input token limit, then
the behaviour's answer (behaviours.py), shaped for JSON mode (compat/), cut at a stop sequence or at
maxOutputTokens, signed, and billed with its thought tokens.

Every malformed request gets a 4xx JSON error in Google's shape, never an HTML page or a dropped
connection. One server per process, in a daemon thread: HTTP/1.1 keep-alive and TCP_NODELAY make a
call take a couple of milliseconds (44 ms with Nagle's algorithm on, measured here).
`ensure_replaying` starts the same server answering from a recording instead (replay.py).
"""

import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs

from harness.engine import MIN_CACHE_TOKENS, compat
from harness.engine.behaviours import respond
from harness.engine.cache import IMPLICIT, STORE
from harness.engine.embeddings import batch_embed, embed
from harness.engine.fields import CACHED, COUNT, normalise
from harness.engine.interaction_events import stream_of as interaction_stream
from harness.engine.interaction_input import INTERACTION
from harness.engine.interactions import STORED as INTERACTIONS
from harness.engine.interactions import error_body as interactions_error
from harness.engine.interactions import is_route as is_interactions
from harness.engine.limits import check_generation, check_input, check_turns, cut_to_tokens, stop_at
from harness.engine.models_api import get_model, list_models
from harness.engine.prompt import blocks, count_tokens, parts_tokens
from harness.engine.replay import Replay
from harness.engine.signatures import check_signatures, sign
from harness.engine.streaming import chunks, encode
from harness.engine.thinking import resolve, thought_part, thought_tokens
from harness.engine.wire import (
    NO_CONTENTS,
    WireError,
    check_built_in_tools,
    check_contents,
    check_parts,
    invalid,
    parse_body,
    resolve_model,
    response_roles_as_user,
)

# Worded as public reports quote Gemini's 400 (2025-26); the 403 for a missing cache is in cache.py.
CACHE_CONFLICT = (
    "CachedContent can not be used with GenerateContent request setting system_instruction, "
    "tools or tool_config.\n\nProposed fix: move those values to CachedContent from "
    "GenerateContent request."
)
IDLE_SECONDS = 60  # an idle keep-alive connection gives its thread back after this long
# A new connection that sends no request line this soon gets a 408 and is closed (issue 19: a silent
# connection held a thread 60 s). Google's front end answers such a client quickly too; its delay is
# not published, so this figure is the glass box's own: long enough for any client, short for a port
# scan.
FIRST_REQUEST_SECONDS = 5
# The request size limit: [OFF] the Gemini docs cap a request with inline data at 20 MB. The wording
# is the one other Google APIs use for an oversized body; Gemini's own was not found (glass-box
# choice).
MAX_BODY_BYTES = 20 * 1024 * 1024
TOO_LARGE = f"Request payload size exceeds the limit: {MAX_BODY_BYTES} bytes."
LISTEN_QUEUE = (
    128  # socketserver's default of 5 left 22 of a 320-connection burst hanging 20 s (issue 9)
)
# Gemini's 403 to a request that carries no key ([3P] quoted alike in gunpal5/Google_GenerativeAI
# #15, 2025-01, PublicAffairs/openai-gemini #92, 2026-05, googleapis/js-genai #898, 2025-08). The
# glass box cannot tell a valid key from another, so any key is accepted; only a missing one is
# refused.
UNREGISTERED = (
    "Method doesn't allow unregistered callers (callers without established identity). Please use "
    "API Key or other form of API consumer identity to call this API."
)
_ROUTE = re.compile(r"^/(v1|v1beta)/(.+)$")
JSON_TYPE = "application/json; charset=UTF-8"


def _cache_name(name: str) -> str:
    return name if name.startswith("cachedContents/") else f"cachedContents/{name}"


def _with_cache(model: str, body: dict) -> tuple[dict, int]:
    """The request with its explicit cache put in front, and the cached tokens (0 if none)."""
    if not body.get("cachedContent"):
        return body, 0
    if any(body.get(field) for field in ("systemInstruction", "tools", "toolConfig")):
        raise invalid(CACHE_CONFLICT)
    entry = STORE.get(_cache_name(body["cachedContent"]))
    if entry["model"] != f"models/{model}":
        raise invalid(
            f"Model used by GenerateContent request (models/{model}) and CachedContent "
            f"({entry['model']}) has to be the same."
        )
    merged = {**body, **entry["request"]}
    merged["contents"] = (entry["request"].get("contents") or []) + (body.get("contents") or [])
    return merged, entry["tokens"]


def _prompt_tokens(model: str, body: dict, request: dict, cached: int) -> tuple[int, int]:
    """(prompt tokens, cached tokens), refusing a prompt over the model's input limit before the
    implicit cache records it."""
    if cached:  # explicit: the cache's tokens are billed as cached, the request's own are not
        prompt = cached + count_tokens({"contents": body["contents"]})
        check_input(prompt, model)
        return prompt, cached
    request_blocks = blocks(request)
    prompt = sum(block.tokens for block in request_blocks)
    check_input(prompt, model)
    return prompt, IMPLICIT.lookup_and_record(model, request_blocks, MIN_CACHE_TOKENS[model])


def _within(parts: list, budget: int) -> list:
    """The start of the answer that fits in `budget` output tokens (a call is kept whole or not
    at all)."""
    kept = []
    for part in parts:
        cost = parts_tokens([part])
        if cost > budget:
            cut = cut_to_tokens(part["text"], budget) if "text" in part else ""
            return kept + [dict(part, text=cut)] if cut else kept
        kept.append(part)
        budget -= cost
    return kept


def _stopped(parts: list, sequences: list) -> list:
    """The answer cut just before the first stop sequence; the parts after it dropped."""
    out = []
    for part in parts:
        if "text" in part and (cut := stop_at(part["text"], sequences)) != part["text"]:
            return out + [dict(part, text=cut)]
        out.append(part)
    return out


def _output(parts: list, config: dict, thinking, request: dict) -> tuple[list, int, str]:
    """The behaviour's answer as generation settings shape it: (parts, thought tokens,
    finishReason). JSON mode first, then a stop sequence, then maxOutputTokens, which thoughts
    spend first."""
    parts = _stopped(compat.shape_answer(parts, config, request), config.get("stopSequences") or [])
    thoughts, limit = thought_tokens(thinking, parts_tokens(parts)), config.get("maxOutputTokens")
    if limit is None or thoughts + parts_tokens(parts) <= limit:
        return parts, thoughts, "STOP"
    thoughts = min(thoughts, limit)
    return _within(parts, limit - thoughts), thoughts, "MAX_TOKENS"


def generate(
    model_name: str, body: dict, api_version: str, method: str = "generateContent"
) -> dict:
    """A GenerateContentResponse for `body` (see the module docstring for the order of the
    steps)."""
    model = resolve_model(model_name, api_version, method)
    body = normalise(body)
    if not body.get("contents"):
        raise invalid(NO_CONTENTS)
    config = body.get("generationConfig") or {}
    check_generation(config, model)
    thinking = resolve(config, model)
    request, cached = _with_cache(model, body)
    request["contents"] = response_roles_as_user(request["contents"], model)
    check_turns(request["contents"], model)
    check_built_in_tools(request.get("tools") or [])
    check_contents(request["contents"])
    check_parts(
        (body.get("systemInstruction") or {}).get("parts") or [],
        "GenerateContentRequest.system_instruction",
    )
    check_signatures(request["contents"], model)
    prompt, cached = _prompt_tokens(model, body, request, cached)
    parts = respond(request, compat.call_functions)
    parts, thoughts, finish = _output(parts, config, thinking, request)
    answer = parts_tokens(parts)
    parts = sign(parts, request, model)
    if thinking.include and thinking.level:
        parts = [thought_part(thinking)] + parts
    # the glass box is deterministic: n identical candidates
    count = config.get("candidateCount") or 1
    usage = {
        "promptTokenCount": prompt,
        "candidatesTokenCount": answer * count,
        "totalTokenCount": prompt + (answer + thoughts) * count,
    }
    if thoughts:
        usage["thoughtsTokenCount"] = thoughts * count
    if cached:
        usage["cachedContentTokenCount"] = cached
    usage["serviceTier"] = compat.served_tier(body.get("serviceTier"))
    content = {"role": "model", "parts": parts} if parts else {"role": "model"}
    # NOTE: no safetyRatings and no promptFeedback. Gemini sends the four HARM_CATEGORY_* ratings
    # only on a candidate it blocks (finishReason SAFETY, no content) and promptFeedback only for a
    # blocked prompt: an answer it lets through has neither ([3P] the cookbook's Safety.ipynb saved
    # outputs, 2025-2026: None for the STOP answer; a live 3.8 Flash response, 2026-09-19). The
    # glass box rates no harm, so it blocks nothing.
    return {
        "candidates": [
            {"content": content, "finishReason": finish, "index": i} for i in range(count)
        ],
        "usageMetadata": usage,
        "modelVersion": model,
    }


def count(model_name: str, body: dict, api_version: str) -> dict:
    """A CountTokensResponse. It reads no cache and fills none: counting is not a call."""
    resolve_model(model_name, api_version, "countTokens")
    body = normalise(body, COUNT)
    request = body.get("generateContentRequest") or body
    total = count_tokens(request)
    if not request.get("cachedContent"):
        return {"totalTokens": total}
    entry = STORE.get(_cache_name(request["cachedContent"]))
    return {"totalTokens": total + entry["tokens"], "cachedContentTokenCount": entry["tokens"]}


def route(method: str, path: str, query: str, body: dict) -> dict:
    """The JSON answer to one HTTP request, its body already decoded; raises WireError for every API
    error. Each route reads its body through its message's spec (fields.py) before anything else."""
    found = _ROUTE.match(path)
    version, rest = (found.group(1), found.group(2)) if found else ("", "")
    params = {key: values[0] for key, values in parse_qs(query).items()}
    if rest.startswith("models/") and ":" in rest and method == "POST":
        model, _, action = rest.removeprefix("models/").rpartition(":")
        if action in ("generateContent", "streamGenerateContent"):
            return generate(model, body, version, action)
        if action == "countTokens":
            return count(model, body, version)
        if action == "embedContent":
            return embed(model, body, version)
        if action == "batchEmbedContents":
            return batch_embed(model, body, version)
    if rest == "models" and method == "GET":
        return list_models(params.get("pageSize", ""), params.get("pageToken", ""), version)
    if rest.startswith("models/") and ":" not in rest and method == "GET":
        return get_model(rest, version)
    if rest == "cachedContents" and method == "POST":
        return STORE.create(normalise(body, CACHED), version)
    if rest == "cachedContents" and method == "GET":
        size = int(params["pageSize"]) if params.get("pageSize", "").isdigit() else 100
        return STORE.list(size or 100, params.get("pageToken", ""))
    if rest == "interactions" and method == "POST":
        return INTERACTIONS.create(normalise(body, INTERACTION), version, generate)
    if rest.startswith("interactions/") and rest.endswith("/cancel") and method == "POST":
        return INTERACTIONS.cancel(rest.removeprefix("interactions/").removesuffix("/cancel"))
    if rest.startswith("interactions/") and method in ("GET", "DELETE"):
        name = rest.removeprefix("interactions/")
        return INTERACTIONS.get(name) if method == "GET" else INTERACTIONS.delete(name)
    if rest.startswith("cachedContents/"):
        if method == "GET":
            return STORE.resource(STORE.get(rest))
        if method == "PATCH":
            return STORE.update(rest, normalise(body, CACHED))
        if method == "DELETE":
            return STORE.delete(rest)
    raise WireError(
        404,
        "NOT_FOUND",
        f"The glass box does not serve {method} {path}: it answers "
        "generateContent, streamGenerateContent, countTokens, models and cachedContents "
        "under /v1/ and /v1beta/, embedContent and batchEmbedContents for gemini-embedding-001, "
        "and the OpenAI-compatible endpoint under /v1beta/openai/.",
    )


def error_body(path: str, err: WireError) -> dict | list:
    """An API error in the shape of the API `path` belongs to."""
    if path.startswith(compat.OPENAI_PREFIX):
        return compat.openai_error(err)
    return interactions_error(err) if is_interactions(path) else err.body()


def glass_box(method: str, path: str, query: str, raw: bytes) -> tuple:
    """(status, content type, body) of the glass box's answer to one HTTP request, and for a
    generate call the headers Gemini adds (its service tier). Every body is decoded here, once,
    whatever the route: bytes that are not a JSON object are a 400 before any route sees them."""
    try:
        body = parse_body(raw)
        if path.startswith(compat.OPENAI_PREFIX):
            return compat.serve_openai(method, path, body, generate)
        payload = route(method, path, query, body)
        stream = interaction_stream(method, query, body, payload) if is_interactions(path) else None
    except WireError as err:  # ASCII: a message may echo a lone surrogate
        return err.code, JSON_TYPE, json.dumps(error_body(path, err)).encode()
    # Gemini's header: the tier that served it
    if path.endswith((":generateContent", ":streamGenerateContent")):
        served = {compat.TIER_HEADER: payload["usageMetadata"]["serviceTier"]}
        if path.endswith(":streamGenerateContent"):
            sse = "alt=sse" in query
            return (
                200,
                "text/event-stream" if sse else JSON_TYPE,
                encode(chunks(payload), sse),
                served,
            )
        return 200, JSON_TYPE, json.dumps(payload, ensure_ascii=False).encode(), served
    if stream is not None:
        return 200, "text/event-stream", stream
    return 200, JSON_TYPE, json.dumps(payload, ensure_ascii=False).encode()


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: one connection serves a whole lesson
    disable_nagle_algorithm = True  # small answers go out at once instead of 40 ms later
    timeout = FIRST_REQUEST_SECONDS  # then IDLE_SECONDS, once the connection has sent a request

    def setup(self):
        super().setup()
        self.requests_served = 0

    def handle_one_request(self):
        """One request; a 408 for a new connection silent for FIRST_REQUEST_SECONDS
        (http.server's own handler would close it without a word)."""
        # readline timing out leaves raw_requestline None; send_error needs the other two set
        self.raw_requestline, self.command, self.requestline = None, None, ""
        super().handle_one_request()
        if self.raw_requestline is None and not self.requests_served:
            self.send_error(
                408,
                f"The glass box received no request within {FIRST_REQUEST_SECONDS} s of "
                "the connection opening; it closed the connection. Send the request at once.",
            )
        self.requests_served += 1
        self.connection.settimeout(IDLE_SECONDS)

    def parse_request(self) -> bool:
        """http.server's parser, refusing HTTP/0.9 at once (it would wait for headers that never
        come)."""
        if len(self.raw_requestline.split()) == 2:
            self.send_error(
                400,
                "The request line has no HTTP version (an HTTP/0.9 request): the API speaks "
                "HTTP/1.1, as in 'GET /v1beta/models HTTP/1.1'.",
            )
            return False
        return super().parse_request()

    def _read_body(self) -> bytes:
        """The request body: by Content-Length, or chunked; a WireError (and a closed connection)
        for a length that is not a number, a broken chunk, or a body over the size limit."""
        if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
            return self._read_chunked()
        length = (self.headers.get("Content-Length") or "0").strip()
        if not length.isdigit():
            self.close_connection = (
                True  # where the body ends is unknown: the connection cannot go on
            )
            raise invalid(
                f"The Content-Length header must be a number of bytes, not {length[:40]!r}."
            )
        size = int(length)
        if size > MAX_BODY_BYTES:
            self._discard(size)
            raise invalid(TOO_LARGE)
        return self.rfile.read(size)

    def _discard(self, size: int) -> None:
        """Read and drop an oversized body, so the client reads our 400 instead of a reset."""
        if size > 4 * MAX_BODY_BYTES:
            self.close_connection = True
            return
        while size > 0:
            chunk = self.rfile.read(min(size, 1 << 20))
            if not chunk:  # the client hung up
                return
            size -= len(chunk)

    def _read_chunked(self) -> bytes:
        data = bytearray()
        while True:
            line = self.rfile.readline(1 << 16)
            try:
                size = int(line.split(b";")[0].strip(), 16)
            except ValueError:
                self.close_connection = True
                raise invalid(
                    "The chunked request body is malformed: a chunk size is not a hexadecimal "
                    "number."
                ) from None
            if size == 0:
                while self.rfile.readline(1 << 16).strip():
                    pass  # trailers: read and ignored
                return bytes(data)
            if len(data) + size > MAX_BODY_BYTES:
                self.close_connection = True
                raise invalid(TOO_LARGE)
            data += self.rfile.read(size)
            self.rfile.readline(1 << 16)  # the CRLF after each chunk

    def _send(
        self, status: int, content_type: str, body: bytes, headers: dict | None = None
    ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _has_key(self, query: str) -> bool:
        """A key in the x-goog-api-key header, the ?key= parameter, or an Authorization header (the
        openai SDK's Bearer key, or an OAuth token)."""
        return bool(
            (self.headers.get("x-goog-api-key") or "").strip()
            or parse_qs(query).get("key")
            or (self.headers.get("Authorization") or "").strip()
        )

    def _serve(self, method: str) -> None:
        path, _, query = self.path.partition("?")
        headers = {}
        try:
            raw = self._read_body()
            if not self._has_key(query):
                raise WireError(403, "PERMISSION_DENIED", UNREGISTERED)
            status, content_type, body, *extra = self.server.answer(method, path, query, raw)
            headers = extra[0] if extra else {}  # a replay answers without them
        # a missing key, or a body too large to read: in the shape of the path's API
        except WireError as err:
            status, content_type, body = (
                err.code,
                JSON_TYPE,
                json.dumps(error_body(path, err)).encode(),
            )
        except Exception as err:  # a bug in the glass box: answer it, keep the connection alive
            status, content_type = 500, JSON_TYPE
            body = json.dumps(
                {
                    "error": {
                        "code": 500,
                        "status": "INTERNAL",
                        "message": (
                            f"The glass box failed on this request: {type(err).__name__}: {err}"
                        ),
                    }
                }
            ).encode()
        self._send(status, content_type, body, headers)

    def send_error(self, code, message=None, explain=None):
        """http.server's own errors (a garbled request line, an unknown method) in Google's JSON
        shape."""
        if code == 501:  # no do_<METHOD>: the method is not one the API has
            code, message = (
                405,
                f"The method {self.command} is not allowed: use GET, POST, PATCH or DELETE.",
            )
        self.close_connection = True
        # a garbled request line leaves 0.9, which would drop the status line
        self.request_version = "HTTP/1.1"
        status = {405: "METHOD_NOT_ALLOWED", 408: "DEADLINE_EXCEEDED"}.get(code, "INVALID_ARGUMENT")
        body = {
            "error": {
                "code": code,
                "status": status,
                "message": message or explain or "The request could not be read.",
            }
        }
        self._send(code, JSON_TYPE, json.dumps(body).encode())

    def do_GET(self):
        self._serve("GET")

    def do_POST(self):
        self._serve("POST")

    def do_PATCH(self):
        self._serve("PATCH")

    def do_DELETE(self):
        self._serve("DELETE")

    def log_message(self, format, *args):
        pass  # quiet: a notebook cell should show answers, not an access log


class _Server(ThreadingHTTPServer):
    daemon_threads = True  # connection threads never keep a kernel from exiting
    request_queue_size = LISTEN_QUEUE

    def __init__(self, answer):
        self.answer = answer  # (method, path, query, raw body) -> (status, content type, body)
        super().__init__(("127.0.0.1", 0), _Handler)

    def handle_error(self, request, client_address):
        pass  # a client that hangs up mid-request is not worth a traceback in a notebook


_lock = threading.Lock()
_servers: dict[str, _Server] = {}  # "" for the glass box, else the path of the recording it replays


def _started(key: str, answer) -> str:
    """The base URL of the server for `key`, started on first use (thread-safe)."""
    with _lock:
        if key not in _servers:
            server = _Server(answer)
            threading.Thread(
                target=server.serve_forever, name=f"glass-box{key and ' replay'}", daemon=True
            ).start()
            _servers[key] = server
        host, port = _servers[key].server_address[:2]
    return f"http://{host}:{port}"


def ensure_running() -> str:
    """Start the glass box once per process and return its base URL."""
    return _started("", glass_box)


def ensure_replaying(recording: str) -> tuple[str, str]:
    """Start (once per recording) a loopback server answering from `recording`; its base URL and
    the API version the recording was made on."""
    replay = Replay(recording)  # read now, so a broken recording is an error here, not a 500 later
    return _started(str(replay.path.resolve()), replay.answer), replay.api_version

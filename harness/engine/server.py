"""The glass box on loopback: the routes of the Gemini REST API, served to the unmodified SDK.

    base_url = ensure_running()          # e.g. 'http://127.0.0.1:40533', the same on every call
    client = genai.Client(api_key="offline", http_options=types.HttpOptions(base_url=base_url))
    # (harness.connect() does exactly this when it runs offline)

Routes (under /v1/ and /v1beta/ alike):

    POST   models/{model}:generateContent        answer, with honest usageMetadata
    POST   models/{model}:streamGenerateContent  the same answer as one server-sent event
    POST   models/{model}:countTokens            {"totalTokens": N}
    POST   cachedContents                        create an explicit cache
    GET    cachedContents                        list them
    GET | PATCH | DELETE  cachedContents/{id}    read, change the ttl, delete

One server per process, in a daemon thread: HTTP/1.1 keep-alive and TCP_NODELAY make a call
take a couple of milliseconds (44 ms with Nagle's algorithm on, measured here).
"""
import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs

from harness.engine import MIN_CACHE_TOKENS
from harness.engine.behaviours import respond
from harness.engine.cache import IMPLICIT, STORE
from harness.engine.prompt import blocks, count_tokens, parts_tokens
from harness.engine.wire import NO_CONTENTS, WireError, check_contents, invalid, parse_body, resolve_model

# Worded as public reports quote Gemini's 400 (2025-26); the 403 for a missing cache is in cache.py.
CACHE_CONFLICT = ("CachedContent can not be used with GenerateContent request setting system_instruction, "
                  "tools or tool_config.\n\nProposed fix: move those values to CachedContent from "
                  "GenerateContent request.")
IDLE_SECONDS = 60  # an idle keep-alive connection gives its thread back after this long
_ROUTE = re.compile(r"^/(v1|v1beta)/(.+)$")


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
        raise invalid(f"Model used by GenerateContent request (models/{model}) and CachedContent "
                      f"({entry['model']}) has to be the same.")
    merged = {**body, **entry["request"]}
    merged["contents"] = (entry["request"].get("contents") or []) + (body.get("contents") or [])
    return merged, entry["tokens"]


def generate(model_name: str, body: dict, api_version: str, method: str = "generateContent") -> dict:
    """A GenerateContentResponse for `body`: the behaviour's parts and the usage they cost."""
    model = resolve_model(model_name, api_version, method)
    if not body.get("contents"):
        raise invalid(NO_CONTENTS)
    request, cached = _with_cache(model, body)
    check_contents(request["contents"])
    if cached:  # explicit: the cache's tokens are billed as cached, the request's own are not
        prompt = cached + count_tokens({"contents": body["contents"]})
    else:
        request_blocks = blocks(request)
        prompt = sum(block.tokens for block in request_blocks)
        cached = IMPLICIT.lookup_and_record(model, request_blocks, MIN_CACHE_TOKENS[model])
    parts = respond(request)
    output = parts_tokens(parts)
    usage = {"promptTokenCount": prompt, "candidatesTokenCount": output, "totalTokenCount": prompt + output}
    if cached:
        usage["cachedContentTokenCount"] = cached
    return {"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}],
            "usageMetadata": usage, "modelVersion": model}


def count(model_name: str, body: dict, api_version: str) -> dict:
    """A CountTokensResponse. It reads no cache and fills none: counting is not a call."""
    resolve_model(model_name, api_version, "countTokens")
    request = body.get("generateContentRequest") or body
    total = count_tokens(request)
    if not request.get("cachedContent"):
        return {"totalTokens": total}
    entry = STORE.get(_cache_name(request["cachedContent"]))
    return {"totalTokens": total + entry["tokens"], "cachedContentTokenCount": entry["tokens"]}


def route(method: str, path: str, query: str, raw: bytes) -> dict:
    """The JSON answer to one HTTP request; raises WireError for every API error."""
    found = _ROUTE.match(path)
    rest = found.group(2) if found else ""
    if rest.startswith("models/") and ":" in rest and method == "POST":
        model, _, action = rest.removeprefix("models/").rpartition(":")
        if action in ("generateContent", "streamGenerateContent"):
            return generate(model, parse_body(raw), found.group(1), action)
        if action == "countTokens":
            return count(model, parse_body(raw), found.group(1))
    if rest == "cachedContents" and method == "POST":
        return STORE.create(parse_body(raw), found.group(1))
    if rest == "cachedContents" and method == "GET":
        params = {key: values[0] for key, values in parse_qs(query).items()}
        size = int(params["pageSize"]) if params.get("pageSize", "").isdigit() else 100
        return STORE.list(size or 100, params.get("pageToken", ""))
    if rest.startswith("cachedContents/"):
        if method == "GET":
            return STORE.resource(STORE.get(rest))
        if method == "PATCH":
            return STORE.update(rest, parse_body(raw))
        if method == "DELETE":
            return STORE.delete(rest)
    raise WireError(404, "NOT_FOUND", f"The glass box does not serve {method} {path}: it answers "
                    "generateContent, countTokens and cachedContents under /v1/ and /v1beta/.")


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: one connection serves a whole lesson
    disable_nagle_algorithm = True  # small answers go out at once instead of 40 ms later
    timeout = IDLE_SECONDS

    def _serve(self, method: str) -> None:
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        path, _, query = self.path.partition("?")
        try:
            status, payload = 200, route(method, path, query, raw)
        except WireError as err:
            status, payload = err.code, err.body()
        except Exception as err:  # a bug in the glass box: answer it, keep the connection alive
            status = 500
            payload = {"error": {"code": 500, "status": "INTERNAL",
                                 "message": f"The glass box failed on this request: {type(err).__name__}: {err}"}}
        body = json.dumps(payload, ensure_ascii=False).encode()
        stream = status == 200 and "alt=sse" in query
        if stream:  # streamGenerateContent: the whole answer as a single server-sent event
            body = b"data: " + body + b"\r\n\r\n"
        self.send_response(status)
        self.send_header("Content-Type", "text/event-stream" if stream else "application/json; charset=UTF-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

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

    def handle_error(self, request, client_address):
        pass  # a client that hangs up mid-request is not worth a traceback in a notebook


_lock = threading.Lock()
_server: _Server | None = None


def ensure_running() -> str:
    """Start the glass box once per process (thread-safe) and return its base URL."""
    global _server
    with _lock:
        if _server is None:
            server = _Server(("127.0.0.1", 0), _Handler)
            threading.Thread(target=server.serve_forever, name="glass-box", daemon=True).start()
            _server = server
        host, port = _server.server_address[:2]
    return f"http://{host}:{port}"

"""Record what the SDK sends and receives, so a lesson run once on Gemini can be replayed without a key.

    WORKBOOK_RECORD=lesson05.jsonl  jupyter lab      # with a key: every call is also written down
    WORKBOOK_REPLAY=lesson05.jsonl  pytest --nbval   # no key: the loopback server answers from it

`harness.connect()` reads both variables. Recording hooks an HTTP transport into the SDK's own client
(`HttpOptions(client_args={"transport": ...})`, google-genai 3.6.1 with its default httpx2 backend),
so requests go to Gemini unchanged and each exchange is appended as one JSON line in the format of
harness/engine/replay.py. NOTE: no header is written (the key travels in `x-goog-api-key`), a `key=`
query parameter is dropped, and any key in any form `harness.redaction` hides (the key in use, encoded or
spaced, and anything shaped like a Google key) is replaced by "[redacted]" before the line reaches the disk. Only the synchronous client records
(`client.models...`, not `client.aio...`).
"""
import threading
from pathlib import Path
from urllib.parse import parse_qsl, urlencode

import httpx2

from harness import redaction
from harness.engine.replay import exchange_line

REDACTED = "[redacted]"
_DROPPED_HEADERS = ("content-encoding", "content-length", "transfer-encoding")  # the body is stored decoded


def redact(text: str) -> str:
    """`text` with every key, in any form `harness.redaction` knows, replaced."""
    return redaction.redact(text, REDACTED)


class RecordingTransport(httpx2.BaseTransport):
    """An httpx2 transport that forwards each request and appends the exchange to `path`."""

    def __init__(self, path: str | Path, inner: httpx2.BaseTransport | None = None):
        self.path = Path(path)
        self.inner = inner or httpx2.HTTPTransport()
        self._lock = threading.Lock()

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        response = self.inner.handle_request(request)
        body = response.read()  # a stream too: it is replayed as the same events
        query = urlencode([(k, v) for k, v in parse_qsl(request.url.query.decode()) if k != "key"])
        line = exchange_line(request.method, request.url.path, query, request.read(), response.status_code,
                             response.headers.get("content-type", ""), body)
        with self._lock, self.path.open("a", encoding="utf-8") as out:
            out.write(redact(line))
        headers = [(k, v) for k, v in response.headers.items() if k.lower() not in _DROPPED_HEADERS]
        return httpx2.Response(response.status_code, headers=headers, content=body, request=request)

    def close(self) -> None:
        self.inner.close()

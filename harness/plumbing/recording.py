"""Record a lesson's HTTP traffic with the model, and replay it (the session bundles are
session_bundles.py).

One option, `WORKBOOK_RECORDING=<mode>:<file>`, with the modes of python-genai's replay client:

    WORKBOOK_RECORDING=record:lesson05.jsonl  jupyter lab      # every exchange written down
    WORKBOOK_RECORDING=replay:lesson05.jsonl  pytest --nbval   # answered from the file only, no key, no glass box
    WORKBOOK_RECORDING=auto:lesson05.jsonl    jupyter lab      # from the file what it holds; the rest sent on, recorded

Record and auto send what they must to Gemini with a key, else to the glass box. `harness.connect()`
reads the option. Recording hooks an HTTP transport into the SDK's own client
(`HttpOptions(client_args= {"transport": ...})`, google-genai 3.6.1 with its default httpx2
backend), so requests go out unchanged and each exchange is appended as one JSON line in the format
of harness/engine/replay.py. NOTE: no header is written (the key travels in `x-goog-api-key`), a
`key=` query parameter is dropped, and any key in any form `harness.plumbing.redaction` hides (the
key in use, encoded or spaced, and anything shaped like a Google key) is replaced by "[redacted]"
before the line reaches the disk. Both of the SDK's clients record (`client.models...`,
`client.interactions...` and their `client.aio...` twins: `recording_args` gives one transport to
each, writing one file). In auto mode a request the file answers never reaches the glass box, so its
implicit cache does not learn it, nor does its store of interactions: offline, a turn whose
`previous_interaction_id` the file answered and whose own request it lacks gets the glass box's 404
for an unknown interaction (Gemini, online, still holds the recorded one for its retention time).
Record such a session again with record:<file>.
"""

import os
import threading
from pathlib import Path
from urllib.parse import parse_qsl, urlencode

import httpx2

from harness.engine.replay import Replay, exchange_line
from harness.plumbing import redaction
from harness.plumbing.arguments import checked, require_path

SETTING = "WORKBOOK_RECORDING"
MODES = ("record", "replay", "auto")
RETIRED = ("WORKBOOK_RECORD", "WORKBOOK_REPLAY")  # the two variables this option replaced
REDACTED = "[redacted]"
# the body is stored decoded
_DROPPED_HEADERS = (
    "content-encoding",
    "content-length",
    "transfer-encoding",
)


def recording_setting() -> tuple[str, Path] | None:
    """(mode, file) from WORKBOOK_RECORDING, None when unset; ValueError saying the form when it
    is wrong."""
    retired = [name for name in RETIRED if os.environ.get(name)]
    if retired:
        raise ValueError(
            f"{retired[0]} is no longer read: set {SETTING}=record:<file>, replay:<file> or "
            f"auto:<file> instead, and unset {' and '.join(retired)}."
        )
    value = os.environ.get(SETTING, "").strip()
    if not value:
        return None
    mode, _, file = value.partition(":")
    if mode not in MODES or not file.strip():
        raise ValueError(
            f"{SETTING}={value!r} is not of the form <mode>:<file> with a mode among "
            f"{', '.join(MODES)}, e.g. {SETTING}=auto:lesson05.jsonl."
        )
    return mode, Path(file.strip())


@checked
def redact(text: str) -> str:
    """`text` with every key, in any form `harness.plumbing.redaction` knows, replaced."""
    return redaction.redact.unchecked(text, REDACTED)


class _Recorder:
    """What the two transports share: the file, the replay it answers from (auto), and one lock,
    so a session's sync and async calls land in one file in the order they finished."""

    def __init__(self, path: str | Path, replay: Replay | None):
        self.path, self.replay, self._lock = Path(path), replay, threading.Lock()

    @staticmethod
    def query(request: httpx2.Request) -> str:
        return urlencode([(k, v) for k, v in parse_qsl(request.url.query.decode()) if k != "key"])

    def recorded(self, request: httpx2.Request, raw: bytes) -> httpx2.Response | None:
        """The file's answer to this request (auto mode), None when it must go out."""
        found = self.replay and self.replay.lookup(
            request.method, request.url.path, self.query(request), raw
        )
        if not found:
            return None
        status, content_type, body = found
        return httpx2.Response(
            status, headers={"content-type": content_type}, content=body, request=request
        )

    def write(
        self, request: httpx2.Request, raw: bytes, response: httpx2.Response, body: bytes
    ) -> httpx2.Response:
        """Append the exchange (keys redacted), and hand back the response with its body already
        read."""
        line = exchange_line(
            request.method,
            request.url.path,
            self.query(request),
            raw,
            response.status_code,
            response.headers.get("content-type", ""),
            body,
        )
        with self._lock, self.path.open("a", encoding="utf-8") as out:
            out.write(redact(line))
        headers = [(k, v) for k, v in response.headers.items() if k.lower() not in _DROPPED_HEADERS]
        return httpx2.Response(response.status_code, headers=headers, content=body, request=request)


class RecordingTransport(httpx2.BaseTransport):
    """An httpx2 transport that appends each exchange to `path`; given a `replay`, the requests
    it holds are answered from it and only the others are forwarded (and recorded)."""

    def __init__(
        self,
        path: str | Path,
        inner: httpx2.BaseTransport | None = None,
        replay: Replay | None = None,
        recorder: _Recorder | None = None,
    ):
        self.recorder = recorder or _Recorder(path, replay)
        self.inner = inner or httpx2.HTTPTransport()

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        raw = request.read()
        answered = self.recorder.recorded(request, raw)
        if answered:
            return answered
        response = self.inner.handle_request(request)
        # a stream too: replayed as the same events
        return self.recorder.write(request, raw, response, response.read())

    def close(self) -> None:
        self.inner.close()


class AsyncRecordingTransport(httpx2.AsyncBaseTransport):
    """The same for the SDK's async client (`client.aio.models...`,
    `client.aio.interactions...`)."""

    def __init__(
        self,
        path: str | Path,
        inner: httpx2.AsyncBaseTransport | None = None,
        replay: Replay | None = None,
        recorder: _Recorder | None = None,
    ):
        self.recorder = recorder or _Recorder(path, replay)
        self.inner = inner or httpx2.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        raw = await request.aread()
        answered = self.recorder.recorded(request, raw)
        if answered:
            return answered
        response = await self.inner.handle_async_request(request)
        return self.recorder.write(request, raw, response, await response.aread())

    async def aclose(self) -> None:
        await self.inner.aclose()


@checked(path=require_path)
def recording_args(path: str | Path, replay: Replay | None = None) -> tuple[dict, dict]:
    """(client_args, async_client_args) for HttpOptions that record both of the SDK's clients
    into `path` (answering from `replay` what it holds, in auto mode)."""
    recorder = _Recorder(path, replay)
    return (
        {"transport": RecordingTransport(path, recorder=recorder)},
        {"transport": AsyncRecordingTransport(path, recorder=recorder)},
    )

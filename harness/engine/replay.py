"""A replay of recorded Gemini traffic: the loopback server answers each request from a recording.

An instructor with a key records a lesson once (`WORKBOOK_RECORD=path`, harness/recorder.py);
CI and students without a key replay it (`WORKBOOK_REPLAY=path`) on the real wire shapes. The
recording is JSONL, one exchange a line, written by `exchange_line` and read by `Replay`:

    {"method": "POST", "path": "/v1/models/gemini-3.8-flash:generateContent", "query": "",
     "request": {...the JSON body...}, "status": 200, "contentType": "application/json; charset=UTF-8",
     "response": "...the body as text..."}

A request is matched on method, path, query and body (the body compared as parsed JSON, so key
order and spacing do not matter). The same request recorded twice is answered in recorded order,
then with its last answer again (a cell run once more). A request not in the recording gets a 404
JSON error saying so, never a guess. No headers are stored: nothing of a key can be replayed.
"""
import json
from collections import defaultdict
from pathlib import Path

from harness.engine.prompt import canonical
from harness.engine.wire import WireError


def request_key(method: str, path: str, query: str, body) -> tuple:
    """What identifies a request in a recording."""
    return method.upper(), path, query, canonical(body)


def body_of(raw: bytes):
    """A request body as stored: parsed JSON when it is JSON, else the text, None when empty."""
    if not raw:
        return None
    text = raw.decode("utf-8", errors="replace")
    try:
        return json.loads(text)
    except ValueError:
        return text


def exchange_line(method: str, path: str, query: str, raw_request: bytes, status: int,
                  content_type: str, response: bytes) -> str:
    """One recorded exchange as a JSONL line (no headers: they are where keys travel)."""
    return json.dumps({"method": method.upper(), "path": path, "query": query, "request": body_of(raw_request),
                       "status": status, "contentType": content_type,
                       "response": response.decode("utf-8", errors="replace")}, ensure_ascii=False) + "\n"


class Replay:
    """The answers of one recording, looked up by request."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.answers, self.used = defaultdict(list), defaultdict(int)
        lines = self.path.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                entry = json.loads(line)
                key = request_key(entry["method"], entry["path"], entry.get("query", ""), entry.get("request"))
                self.answers[key].append((entry["status"], entry["contentType"], entry["response"].encode()))
            except (ValueError, KeyError, TypeError) as err:
                raise ValueError(f"{self.path}, line {number}: not a recorded exchange ({err}). Record it again "
                                 f"with WORKBOOK_RECORD, or remove the line.") from None
        self.api_version = next((key[1].split("/")[1] for key in self.answers), "v1")

    def answer(self, method: str, path: str, query: str, raw: bytes) -> tuple[int, str, bytes]:
        """(status, content type, body) recorded for this request; WireError 404 when there is none."""
        key = request_key(method, path, query, body_of(raw))
        recorded = self.answers.get(key)
        if not recorded:
            raise WireError(404, "NOT_FOUND", f"The replay of {self.path.name} holds no {method} {path}"
                            f"{'?' + query if query else ''} with this body: the lesson sent a request that "
                            "was not recorded. Record the lesson again with WORKBOOK_RECORD, or unset "
                            "WORKBOOK_REPLAY to run on the glass box.")
        index = min(self.used[key], len(recorded) - 1)
        self.used[key] += 1
        return recorded[index]

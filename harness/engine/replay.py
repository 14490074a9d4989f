"""A replay of recorded Gemini traffic: the loopback server answers each request from a recording.

An instructor with a key records a lesson once (`WORKBOOK_RECORDING=record:path`,
harness/plumbing/recording.py); CI and students without a key replay it
(`WORKBOOK_RECORDING=replay:path`) on the real wire shapes, or complete it (`auto:path`). The
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

BODY_SHOWN = 160  # characters of a missing request's body its error shows: enough to tell which one


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


def exchange_line(
    method: str,
    path: str,
    query: str,
    raw_request: bytes,
    status: int,
    content_type: str,
    response: bytes,
) -> str:
    """One recorded exchange as a JSONL line (no headers: they are where keys travel)."""
    return (
        json.dumps(
            {
                "method": method.upper(),
                "path": path,
                "query": query,
                "request": body_of(raw_request),
                "status": status,
                "contentType": content_type,
                "response": response.decode("utf-8", errors="replace"),
            },
            ensure_ascii=False,
        )
        + "\n"
    )


class Replay:
    """The answers of one recording, looked up by request."""

    def __init__(self, path: str | Path, missing_ok: bool = False):
        self.path = Path(path)
        self.answers, self.used = defaultdict(list), defaultdict(int)
        lines = (
            []
            if missing_ok and not self.path.exists()
            else self.path.read_text(encoding="utf-8").splitlines()
        )
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                entry = json.loads(line)
                key = request_key(
                    entry["method"], entry["path"], entry.get("query", ""), entry.get("request")
                )
                self.answers[key].append(
                    (entry["status"], entry["contentType"], entry["response"].encode())
                )
            except (ValueError, KeyError, TypeError) as err:
                raise ValueError(
                    f"{self.path}, line {number}: not a recorded exchange ({err}). Record it again "
                    "with WORKBOOK_RECORDING=record:<file>, or remove the line."
                ) from None
        # The version it was made on ("" when empty): a replay must ask on the same paths.
        self.api_version = next((key[1].split("/")[1] for key in self.answers), "")

    def lookup(
        self, method: str, path: str, query: str, raw: bytes
    ) -> tuple[int, str, bytes] | None:
        """(status, content type, body) recorded for this request (in recorded order, then the last
        again), None when the recording does not hold it."""
        key = request_key(method, path, query, body_of(raw))
        recorded = self.answers.get(key)
        if not recorded:
            return None
        index = min(self.used[key], len(recorded) - 1)
        self.used[key] += 1
        return recorded[index]

    def unasked(self) -> int:
        """How many recorded answers no request has asked for yet: 0 once a replay has retraced
        its recording."""
        return sum(max(0, len(answers) - self.used[key]) for key, answers in self.answers.items())

    def answer(self, method: str, path: str, query: str, raw: bytes) -> tuple[int, str, bytes]:
        """What `lookup` finds; WireError 404 naming the request when the recording does not hold
        it."""
        recorded = self.lookup(method, path, query, raw)
        if recorded is None:
            raise WireError(
                404,
                "NOT_FOUND",
                f"The replay of {self.path.name} holds no {method}"
                f" {path}{'?' + query if query else ''} {self._which(method, path, body_of(raw))}:"
                " the lesson sent a request that was not recorded. Record it with"
                " WORKBOOK_RECORDING=auto:<file> (the file keeps what it holds and gains the"
                " rest), or unset WORKBOOK_RECORDING to run on the glass box.",
            )
        return recorded

    def _which(self, method: str, path: str, body) -> str:
        """Which request that was, for a reader hunting the difference: its body's start (as the
        file would hold it, keys sorted) and how many others the file holds on the same method
        and path."""
        same = sum(
            len(answers)
            for key, answers in self.answers.items()
            if key[:2] == (method.upper(), path)
        )
        if body is None:
            shown = "with no body"
        else:
            text = canonical(body)
            shown = f"with this body ({text[:BODY_SHOWN]}{'...' if len(text) > BODY_SHOWN else ''})"
        return f"{shown}; it holds {same} other{'' if same == 1 else 's'} there"

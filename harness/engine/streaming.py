"""Streaming: one answer sent as several chunks, as `streamGenerateContent` sends it.

Text goes out a few words at a time, each function call or thought part in a chunk of its own. Every
chunk carries `usageMetadata`, as Gemini's do ([OFF] the REST reference's streamed responses and
[3P] captured streams, 2025-2026): the prompt's counts from the first chunk, the answer's counted so
far, the whole usage on the last chunk. A candidate's `finishReason` comes on its last piece; with
several candidates (candidateCount) each chunk holds a piece of each. The chunks' texts joined give
the whole answer back exactly:

    >>> answer = {"candidates": [{"content": {"role": "model", "parts": [{"text": "one two three four five"}]},
    ...                           "finishReason": "STOP", "index": 0}], "usageMetadata": {"totalTokenCount": 9}}
    >>> [c["candidates"][0]["content"]["parts"][0]["text"] for c in chunks(answer, words=2)]
    ['one two ', 'three four ', 'five']

With `?alt=sse` (what the SDK asks for) each chunk is one server-sent event; without it the chunks
come as one JSON array, as the REST API does.
"""

import json
import re

WORDS_PER_CHUNK = 6  # small enough that a one-sentence answer arrives in pieces
_WORD = re.compile(r"\s*\S+\s*|\s+")


def _pieces(part: dict, words: int) -> list[dict]:
    if "text" not in part or part.get("thought"):
        return [part]
    tokens = _WORD.findall(part["text"]) or [""]
    return [dict(part, text="".join(tokens[i : i + words])) for i in range(0, len(tokens), words)]


def chunks(response: dict, words: int = WORDS_PER_CHUNK) -> list[dict]:
    """The response split into stream chunks (a response without candidates stays one chunk). With
    several candidates (candidateCount) chunk k carries the k-th piece of each, as Gemini streams
    them.
    """
    if not response.get("candidates"):
        return [response]
    shell = {
        key: value for key, value in response.items() if key not in ("candidates", "usageMetadata")
    }
    streams = [_candidate_pieces(candidate, words) for candidate in response["candidates"]]
    out = [
        dict(shell, candidates=[stream[k] for stream in streams if k < len(stream)])
        for k in range(max(len(stream) for stream in streams))
    ]
    _usage_so_far(out, response.get("usageMetadata", {}))
    return out


def _candidate_pieces(candidate: dict, words: int) -> list[dict]:
    """One candidate as the pieces it streams in, its finishReason (and the rest) on the last."""
    index = candidate.get("index", 0)
    parts = [
        piece for part in candidate["content"].get("parts") or [] for piece in _pieces(part, words)
    ]
    pieces = [{"content": {"role": "model", "parts": [part]}, "index": index} for part in parts]
    pieces = pieces or [{"content": {"role": "model"}, "index": index}]
    pieces[-1].update(
        {key: value for key, value in candidate.items() if key not in ("content", "index")}
    )
    return pieces


def _usage_so_far(out: list[dict], usage: dict) -> None:
    """Put on each chunk the usage up to it: answer tokens shared out by the characters sent so far
    (thoughts come first, whole), the last chunk's equal to the response's."""
    sizes = [
        len(json.dumps([c["content"].get("parts") or [] for c in chunk["candidates"]]))
        for chunk in out
    ]
    answer, thoughts = usage.get("candidatesTokenCount", 0), usage.get("thoughtsTokenCount", 0)
    base = usage.get("totalTokenCount", 0) - answer - thoughts
    sent = 0
    for chunk, size in zip(out, sizes):
        sent += size
        so_far = dict(usage, candidatesTokenCount=answer * sent // sum(sizes))
        so_far["totalTokenCount"] = base + thoughts + so_far["candidatesTokenCount"]
        chunk["usageMetadata"] = so_far
    out[-1]["usageMetadata"] = dict(usage)


def encode(parts: list[dict], sse: bool) -> bytes:
    """The chunks as the HTTP body: server-sent events, or one JSON array."""
    if sse:
        return b"".join(
            b"data: " + json.dumps(c, ensure_ascii=False).encode() + b"\r\n\r\n" for c in parts
        )
    return json.dumps(parts, ensure_ascii=False).encode()

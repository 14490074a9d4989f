"""An interaction as server-sent events: the answer of a create with `stream=True`, and the replay a
`get(id, stream=True)` gives of a stored one (from the event after `last_event_id`, if given).

The order is the docs' REST example ([OFF] ai.google.dev/gemini-api/docs/interactions/streaming,
read 2026-12-02): interaction.created, interaction.status_update, then per step step.start,
step.delta (text a few words at a time, as streamGenerateContent splits it), step.stop, and
interaction.completed, whose interaction carries the usage but no steps (the last step.stop carries
the usage too). A GET may re-attach to a stream with `stream=true` and resume after `last_event_id`
([OFF] the SDK's `interactions.get(..., stream, last_event_id)`, google-genai 3.6.1): every event
has an id `{interaction id}:{number}`, the same on the first stream and on every replay, so a client
that kept the last id it read resumes exactly where it stopped.
"""

import json
from urllib.parse import parse_qs

from harness.engine.streaming import chunks
from harness.engine.wire import invalid

# NOTE: no public source quotes Gemini's answer to an unknown last_event_id (searched 2026-12-02):
# ours.
UNKNOWN_EVENT = (
    "last_event_id {event!r} is not an event of interaction {id}: send an `event_id` read from "
    "this interaction's stream (they look like '{id}:3'), or leave it out to replay from the start."
)


def _step_events(index: int, step: dict) -> list[dict]:
    """step.start, its deltas and step.stop for one step: text in pieces, a call or a thought
    whole."""
    if step["type"] != "model_output":
        return [
            {"event_type": "step.start", "index": index, "step": step},
            {"event_type": "step.stop", "index": index},
        ]
    events = [
        {
            "event_type": "step.start",
            "index": index,
            "step": {"type": "model_output", "content": []},
        }
    ]
    for item in step["content"]:
        pieces = chunks({"candidates": [{"content": {"parts": [{"text": item["text"]}]}}]})
        events += [
            {
                "event_type": "step.delta",
                "index": index,
                "delta": {
                    "type": "text",
                    "text": piece["candidates"][0]["content"]["parts"][0]["text"],
                },
            }
            for piece in pieces
        ]
    return events + [{"event_type": "step.stop", "index": index}]


def events(interaction: dict) -> list[dict]:
    """The server-sent events of one interaction, in the docs' order. Only the model's steps
    stream: a stored interaction's user_input steps are its request, not its answer."""
    shell = {key: interaction[key] for key in ("id", "model", "created") if key in interaction}
    out = [
        {
            "event_type": "interaction.created",
            "interaction": dict(shell, status="in_progress", object="interaction"),
        },
        {
            "event_type": "interaction.status_update",
            "interaction_id": interaction["id"],
            "status": "in_progress",
        },
    ]
    answer = [step for step in interaction["steps"] if step["type"] != "user_input"]
    for index, step in enumerate(answer):
        out += _step_events(index, step)
    if out[-1]["event_type"] == "step.stop":
        out[-1]["usage"] = interaction["usage"]
    done = {
        key: interaction[key] for key in ("id", "model", "created", "updated", "status", "usage")
    }
    out.append(
        {"event_type": "interaction.completed", "interaction": dict(done, object="interaction")}
    )
    for number, event in enumerate(out):
        event["event_id"] = f"{interaction['id']}:{number}"
    return out


def encode_events(interaction: dict, after: str = "") -> bytes:
    """The events as an SSE body (`event:` names each one, `data:` carries its JSON), from the one
    after the event id `after` when it is given."""
    sent = events(interaction)
    if after:
        ids = [event["event_id"] for event in sent]
        if after not in ids:
            raise invalid(UNKNOWN_EVENT.format(event=after, id=interaction["id"]))
        sent = sent[ids.index(after) + 1 :]
    return b"".join(
        f"event: {e['event_type']}\ndata: {json.dumps(e, ensure_ascii=False)}\n\n".encode()
        for e in sent
    )


def stream_of(method: str, query: str, body: dict, interaction: dict) -> bytes | None:
    """The SSE body when the request asks for one (a create with `stream: true`, a get with
    `?stream=true`), else None: the route then answers the interaction as JSON."""
    if method == "POST" and body.get("stream") is True:
        return encode_events(interaction)
    params = {key: values[0] for key, values in parse_qs(query).items()}
    if method == "GET" and params.get("stream", "").lower() == "true":
        return encode_events(interaction, params.get("last_event_id", ""))
    return None

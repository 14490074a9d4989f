"""The Interactions API on the glass box: server-held history, replayed into the model's context.

    POST   {v1,v1beta}/interactions        create: model, input, previous_interaction_id, store,
                                           system_instruction, tools, generation_config
    GET    {v1,v1beta}/interactions/{id}   the stored interaction, its user_input steps included
                                           (?stream=true: replayed as events, interaction_events.py)
    DELETE {v1,v1beta}/interactions/{id}   forget it ({} back)
    POST   {v1,v1beta}/interactions/{id}/cancel   the interaction as it is: none is ever left running

A create is answered by the same generateContent the rest of the glass box serves, with the
request interaction_input.py makes: the contents of every stored interaction up the
`previous_interaction_id` chain (inputs and outputs), then this input. As the docs say ([OFF]
ai.google.dev/gemini-api/docs/interactions-overview, read 2026-12-01), only that history carries
over: system instruction, tools and generation config apply to the interaction that sends them.
The answer comes back as typed steps: a thought step carrying the model's signature first, as
Gemini's do (the August 2026 cookbook's Function_calling saved output lists "thought" then
"function_call"), then model_output and function_call steps; a client that keeps the conversation
itself (store=false) sends them back as its next input. The usage counts the whole replayed
context, so a conversation's growing prefix shows as `total_cached_tokens` through the same
implicit-cache simulation as generateContent (implicit caching only).

Retention: Gemini keeps a stored interaction 55 days on the paid tier and 1 day on the free tier
([OFF] "Data storage and retention", ai.google.dev/gemini-api/docs/interactions, as copied in public
repositories Jul-Nov 2026; read 2026-12-02). The glass box keeps one RETENTION_SECONDS (the paid
tier's 55 days, on `clock`, which tests move) and, since Gemini publishes no count or size limit for
stored interactions (searched docs and issues, 2026-12-03), at most MAX_STORED of them and
MAX_STORED_BYTES of their contents in its memory (bounded.py), the oldest going first: an id dropped
is answered as Gemini answers an unknown one. `store=false` keeps none, and so rules out a later
`previous_interaction_id` and `background=true` (the same page: store=false "is incompatible with
background execution").

Agents (`agent=`, such as Deep Research, with its `agent_config`): Google runs them on its own
servers, searching the web and running tools for minutes; the glass box is offline and has none, so
an agent interaction is refused with a 400 naming the agent (never accepted and answered as if a
model had done the research). No public source quotes Gemini's own error for an unknown agent
(searched issues, code and docs, 2026-12-02), so the wording is the glass box's.

Errors come in the Interactions API's own shape, not generateContent's: `{"error": {"message": ...,
"code": "invalid_request"}}`, the code a lower-case word ([3P] quoted by users of the API: 400
"invalid_request" in discuss.ai.google.dev "opaque 400 ... stateful Interactions API" and
allenhutchison/gemini-cli-deep-research#73, 2026-06-12; 404 "not_found" in
googleapis/python-genai#2985, 2026-09-19; 501 "not_implemented" in googleapis/js-genai#1694,
2026-06-16). The SDK types `code` as a string (google/genai/_gaos/types/interactions/error.py).

Streaming (`stream=True` on create, and on get to replay a stored one) is interaction_events.py.
"""

import hashlib
import re
import threading
import time

from harness.engine.bounded import Bounded
from harness.engine.interaction_input import generate_body
from harness.engine.prompt import canonical
from harness.engine.wire import WireError, invalid
from harness.models import AGENTS

# Our bounds (Gemini publishes none): a lesson makes tens of interactions of a few kB. A record is
# charged the JSON length of what it keeps, its replayed history included, so the bytes held in
# memory (history shared between records) stay below MAX_STORED_BYTES plus Python's overhead.
MAX_STORED = 1_000
MAX_STORED_BYTES = 64 * 1024 * 1024
RETENTION_SECONDS = 55 * 24 * 3600  # [OFF] the paid tier's 55 days (the free tier's is 1 day)
# NOTE: Gemini's status and code for an unknown id are 404 "not_found"
# (googleapis/python-genai#2985, 2026-09-19, a GET of an id Gemini had just issued); its wording for
# an unknown or deleted id, or for a turn that follows a store=false one, was found nowhere public
# (searched issues, code, docs and pages for "interaction not found", "Interaction with id",
# previous_interaction_id, 2026-12-01 and 2026-12-02): the words are the glass box's own.
NOT_FOUND = (
    "Interaction {id} was not found: it does not exist, was deleted, was created with "
    "store=false, or was dropped (the glass box keeps the newest "
    f"{MAX_STORED:,} interactions, {MAX_STORED_BYTES // 2**20} MB in all). Send the "
    "conversation again, or continue from a newer id."
)
NO_MODEL = "An interaction needs a `model` (for example 'gemini-3.8-flash') or an `agent`."
AGENT = (
    "The glass box cannot run the agent {agent!r}: Google's hosted agents (Deep Research,"
    " Antigravity) plan, search the web and run tools on Google's servers, and the glass box is an"
    " offline stand-in with no agents. Run this cell with a Gemini key, or send `model` (for"
    " example 'gemini-3.8-flash') instead of `agent` for a model interaction."
)
# The Interactions API's error codes by HTTP status, as users quote them (module docstring); a
# status with no quoted code gets its Google status name in lower case, the glass box's own choice.
_ERROR_CODES = {400: "invalid_request", 404: "not_found", 501: "not_implemented"}
BACKGROUND_UNSTORED = (
    "background=true needs a stored interaction: store=false is incompatible with background "
    "execution. Leave store out (it defaults to true) or run in the foreground."
)
_PATH = re.compile(r"^/(v1|v1beta)/interactions(/[^/]*(/cancel)?)?$")


def _call_id(call: dict, index: int, contents: list) -> str:
    return "call_" + hashlib.sha256(canonical([contents, call, index]).encode()).hexdigest()[:16]


def steps_of(parts: list, contents: list) -> tuple[list, list]:
    """(typed steps, the parts as stored, each call with its id) of the model's answer."""
    steps, stored = [], []
    # Gemini's steps put the model's thought, with its signature, before the call or the answer
    # (August cookbook Function_calling, saved output: "Type: thought", "Type: function_call"); the
    # signature generateContent carries on the call (or the answer's last part) goes there.
    signature = next((p["thoughtSignature"] for p in parts if p.get("thoughtSignature")), None)
    if signature and not any(p.get("thought") for p in parts):
        steps.append({"type": "thought", "signature": signature, "summary": []})
    for index, part in enumerate(parts):
        if "functionCall" in part:
            call = dict(part["functionCall"])
            call.setdefault("id", _call_id(call, index, contents))
            stored.append(dict(part, functionCall=call))
            steps.append(
                {
                    "type": "function_call",
                    "id": call["id"],
                    "name": call.get("name", ""),
                    "arguments": call.get("args") or {},
                }
            )
            continue
        stored.append(part)
        if part.get("thought"):  # shown with thinking_summaries="auto": its text is the summary
            steps.append(
                {
                    "type": "thought",
                    "signature": part.get("thoughtSignature") or signature,
                    "summary": [{"type": "text", "text": part["text"]}] if part.get("text") else [],
                }
            )
            signature = None  # one thought step carries it
        elif "text" in part:
            if steps and steps[-1]["type"] == "model_output":
                steps[-1]["content"].append({"type": "text", "text": part["text"]})
            else:
                steps.append(
                    {"type": "model_output", "content": [{"type": "text", "text": part["text"]}]}
                )
    return steps, stored


def usage_of(metadata: dict) -> dict:
    """usageMetadata as the Interactions API names it."""
    return {
        "total_input_tokens": metadata.get("promptTokenCount", 0),
        "total_cached_tokens": metadata.get("cachedContentTokenCount", 0),
        "total_output_tokens": metadata.get("candidatesTokenCount", 0),
        "total_thought_tokens": metadata.get("thoughtsTokenCount", 0),
        "total_tokens": metadata.get("totalTokenCount", 0),
    }


class Interactions:
    """The stored interactions of one glass box: within MAX_STORED and MAX_STORED_BYTES, the oldest
    dropped first."""

    def __init__(self):
        self._stored = Bounded(MAX_STORED, MAX_STORED_BYTES)
        self._lock = threading.Lock()
        self._created = 0
        # seconds since the epoch; tests move it to expire a stored interaction
        self.clock = time.time

    def _get(self, name: str) -> dict:
        with self._lock:
            record = self._stored.get(name)
            if record is not None and self.clock() - record["stored_at"] > RETENTION_SECONDS:
                self._stored.pop(name)  # past its retention: gone, as on Gemini
                record = None
            if record is None:
                raise WireError(404, "NOT_FOUND", NOT_FOUND.format(id=name))
            return record

    def create(self, body: dict, version: str, generate) -> dict:
        """Answer and (unless store is false) keep an interaction; `generate(model, body, version)`
        is the glass box's generateContent."""
        asked = str(body.get("model") or "").removeprefix("models/")
        if body.get("agent") or asked in AGENTS:  # an agent's id sent as `model` is still an agent
            raise invalid(AGENT.format(agent=str(body.get("agent") or asked)))
        if not body.get("model"):
            raise invalid(NO_MODEL)
        if body.get("background") and body.get("store") is False:
            raise invalid(BACKGROUND_UNSTORED)
        previous = body.get("previous_interaction_id")
        history = list(self._get(previous)["contents"]) if previous else []
        request = generate_body(body, history)
        answer = generate(str(body["model"]).removeprefix("models/"), request, version)
        candidate = answer["candidates"][0]
        steps, stored = steps_of(candidate["content"].get("parts") or [], request["contents"])
        now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        with self._lock:
            self._created += 1
            name = (
                "v1_"
                + hashlib.sha256(canonical([request, self._created]).encode()).hexdigest()[:24]
            )
        # the tier that served it
        interaction = {
            "id": name,
            "model": answer["modelVersion"],
            "created": now,
            "updated": now,
            "status": (
                "requires_action"
                if any(s["type"] == "function_call" for s in steps)
                else "completed"
            ),
            "steps": steps,
            "usage": usage_of(answer["usageMetadata"]),
            "service_tier": answer["usageMetadata"].get("serviceTier", "standard"),
        }
        if previous:
            interaction["previous_interaction_id"] = previous
        if body.get("store", True):
            user_steps = [
                {
                    "type": "user_input",
                    "content": (
                        body["input"]
                        if isinstance(body["input"], list)
                        else [
                            (
                                {"type": "text", "text": body["input"]}
                                if isinstance(body["input"], str)
                                else body["input"]
                            )
                        ]
                    ),
                }
            ]
            record = {
                "contents": request["contents"] + [{"role": "model", "parts": stored}],
                "resource": dict(interaction, steps=user_steps + steps),
                "stored_at": self.clock(),
            }
            size = len(canonical([record["contents"], record["resource"]]))
            with self._lock:
                self._stored.put(name, record, size)
        return interaction

    def get(self, name: str) -> dict:
        return self._get(name)["resource"]

    def cancel(self, name: str) -> dict:
        """The interaction, unchanged: the glass box answers every interaction (background ones too)
        before it replies, so none is left in progress to stop. NOTE: Gemini's answer to cancelling
        a finished interaction is quoted nowhere public (searched 2026-12-02); a no-op is ours."""
        return self._get(name)["resource"]

    def delete(self, name: str) -> dict:
        with self._lock:
            if self._stored.pop(name) is None:
                raise WireError(404, "NOT_FOUND", NOT_FOUND.format(id=name))
        return {}


STORED = Interactions()


def is_route(path: str) -> bool:
    """True for the paths this module serves: {v1,v1beta}/interactions and interactions/{id}."""
    return _PATH.match(path) is not None


def error_body(err: WireError) -> dict:
    """An API error in the Interactions API's shape: a message and a lower-case code word."""
    return {
        "error": {"message": err.message, "code": _ERROR_CODES.get(err.code, err.status.lower())}
    }

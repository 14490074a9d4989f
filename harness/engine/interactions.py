"""The Interactions API on the glass box: server-held history, replayed into the model's context.

    POST   {v1,v1beta}/interactions        create: model, input, previous_interaction_id, store,
                                           system_instruction, tools, generation_config
    GET    {v1,v1beta}/interactions/{id}   the stored interaction, its user_input steps included
    DELETE {v1,v1beta}/interactions/{id}   forget it ({} back)

Shapes as google-genai 3.6.1 sends and reads them (snake_case JSON; read in
google/genai/_gaos/types/interactions/, 2026-12-01). A create is answered by the same
generateContent the rest of the glass box serves: the contents of every stored interaction up the
`previous_interaction_id` chain (inputs and outputs), then this input. As the docs say ([OFF]
ai.google.dev/gemini-api/docs/interactions-overview, read 2026-12-01), only that history carries
over: system instruction, tools and generation config apply to the interaction that sends them.
The answer comes back as typed steps: a thought step carrying the model's signature first, as
Gemini's do (the August 2026 cookbook's Function_calling saved output lists "thought" then
"function_call"), then model_output and function_call steps. A client that keeps the conversation
itself (store=false) sends those steps back as the next input, with its function_result steps: the
thought's signature goes back onto the call it came with, and a call sent back without one meets
the same missing-signature 400 as generateContent (signatures.py). Its usage counts
the whole replayed context, so a conversation's growing prefix shows as `total_cached_tokens`
through the same implicit-cache simulation as generateContent (implicit caching only).

Retention: Gemini keeps a stored interaction 55 days on the paid tier and 1 day on the free tier
([OFF] "Data storage and retention", ai.google.dev/gemini-api/docs/interactions, as copied in public
repositories Jul-Nov 2026; read 2026-12-02). The glass box keeps one RETENTION_SECONDS (the paid
tier's 55 days, on `clock`, which tests move) and at most MAX_STORED in its memory, the oldest going
first; `store=false` keeps none, and so rules out a later `previous_interaction_id` and
`background=true` (the same page: store=false "is incompatible with background execution").

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
from collections import OrderedDict

from harness.engine.prompt import canonical
from harness.engine.wire import WireError, invalid

MAX_STORED = 1_000  # a lesson or a cookbook session makes tens; a whole cohort's kernel stays small
RETENTION_SECONDS = 55 * 24 * 3600  # [OFF] the paid tier's 55 days (the free tier's is 1 day)
# NOTE: Gemini's status and code for an unknown id are 404 "not_found" (googleapis/python-genai#2985,
# 2026-09-19, a GET of an id Gemini had just issued); its wording for an unknown or deleted id, or for
# a turn that follows a store=false one, was found nowhere public (searched issues, code, docs and
# pages for "interaction not found", "Interaction with id", previous_interaction_id, 2026-12-01 and
# 2026-12-02): the words are the glass box's own.
NOT_FOUND = "Interaction {id} was not found: it does not exist, was deleted, or was created with store=false."
NO_MODEL = "An interaction needs a `model` (for example 'gemini-3.8-flash') or an `agent`."
AGENT = ("The glass box cannot run the agent {agent!r}: Google's hosted agents (Deep Research, Antigravity) "
         "plan, search the web and run tools on Google's servers, and the glass box is an offline stand-in "
         "with no agents. Run this cell with a Gemini key, or send `model` (for example 'gemini-3.8-flash') "
         "instead of `agent` for a model interaction.")
# The Interactions API's error codes by HTTP status, as users quote them (module docstring); a status
# with no quoted code gets its Google status name in lower case, the glass box's own choice.
_ERROR_CODES = {400: "invalid_request", 404: "not_found", 501: "not_implemented"}
NO_INPUT = "An interaction needs an `input`: a string, a content object or a list of them."
BACKGROUND_UNSTORED = ("background=true needs a stored interaction: store=false is incompatible with background "
                       "execution. Leave store out (it defaults to true) or run in the foreground.")
_BUILT_IN = {"google_search": "googleSearch", "code_execution": "codeExecution", "url_context": "urlContext"}
_PATH = re.compile(r"^/(v1|v1beta)/interactions(/[^/]+)?$")
_MODEL_STEPS = ("thought", "model_output", "function_call")
_STEPS = _MODEL_STEPS + ("user_input", "function_result")
_GENERATION = {"max_output_tokens": "maxOutputTokens", "temperature": "temperature", "top_p": "topP",
               "stop_sequences": "stopSequences", "seed": "seed", "response_mime_type": "responseMimeType"}


def _part(item) -> dict:
    """One input content (a string or a typed dict) as a generateContent part."""
    if isinstance(item, str):
        return {"text": item}
    if not isinstance(item, dict):
        raise invalid(f"An input content must be a string or an object with a `type`, got {type(item).__name__}.")
    kind = item.get("type")
    if kind == "text":
        return {"text": str(item.get("text", ""))}
    if kind == "function_result":
        result = item.get("result")
        return {"functionResponse": {"id": item.get("call_id"), "name": item.get("name", ""),
                                     "response": result if isinstance(result, dict) else {"result": result}}}
    if kind in ("image", "audio", "video", "document") and item.get("data"):
        return {"inlineData": {"mimeType": item.get("mime_type", "application/octet-stream"), "data": item["data"]}}
    if kind in ("image", "audio", "video", "document") and item.get("uri"):
        return {"fileData": {"fileUri": item["uri"], "mimeType": item.get("mime_type", f"{kind}/*")}}
    raise invalid(f"The glass box does not read input contents of type {kind!r}: it reads text, "
                  "function_result, and image/audio/video/document with data or uri.")


def _step_parts(step: dict) -> list[dict]:
    """The parts one step the client sends stands for (a thought stands for none: its signature
    rides on the next part, see _signed)."""
    kind = step["type"]
    if kind == "function_call":
        return [{"functionCall": {"id": step.get("id"), "name": step.get("name", ""), "args": step.get("arguments") or {}}}]
    if kind == "function_result":
        return [_part(step)]
    if kind == "thought":
        return []
    content = step.get("content") or []
    return [_part(c) for c in (content if isinstance(content, list) else [content])]


def _signed(parts: list[dict], signature) -> list[dict]:
    """A model turn's parts with a thought step's signature put back where generateContent carries
    it: on the first function call, or else on the last part (as signatures.sign puts it)."""
    if not signature or not parts:
        return parts
    at = next((i for i, part in enumerate(parts) if "functionCall" in part), len(parts) - 1)
    return parts[:at] + [dict(parts[at], thoughtSignature=signature)] + parts[at + 1:]


def _step_contents(steps: list[dict]) -> list[dict]:
    """Steps as contents: a run of model steps (thought, model_output, function_call) is one model
    turn and a run of function_result steps one user turn (the responses to that turn's calls, as
    generateContent wants them); each user_input step is a user turn of its own."""
    contents, previous = [], None
    for step in steps:
        kind = "model" if step["type"] in _MODEL_STEPS else step["type"]
        if kind != previous or kind == "user_input":
            contents.append({"role": "model" if kind == "model" else "user", "parts": [], "signature": None})
        previous = kind
        contents[-1]["parts"] += _step_parts(step)
        if step["type"] == "thought" and step.get("signature"):
            contents[-1]["signature"] = step["signature"]
    return [{"role": c["role"], "parts": _signed(c["parts"], c["signature"])} for c in contents if c["parts"]]


def input_contents(value) -> list[dict]:
    """The interaction's input as generateContent contents (role user, or the roles of turns or steps)."""
    if value is None or value == "" or value == []:
        raise invalid(NO_INPUT)
    items = value if isinstance(value, list) else [value]
    if all(isinstance(i, dict) and i.get("type") in _STEPS for i in items):  # a conversation kept client-side
        return _step_contents(items)
    if all(isinstance(i, dict) and "role" in i for i in items):  # turns: [{"role", "content"}]
        return [{"role": "model" if i["role"] in ("model", "assistant") else "user",
                 "parts": [_part(c) for c in (i["content"] if isinstance(i["content"], list) else [i["content"]])]}
                for i in items]
    return [{"role": "user", "parts": [_part(i) for i in items]}]


def _tool_config(choice) -> dict | None:
    if choice is None:
        return None
    if isinstance(choice, str):
        return {"functionCallingConfig": {"mode": choice.upper()}}
    allowed = choice.get("allowed_tools") or {}
    config = {"mode": str(allowed.get("mode", "AUTO")).upper()}
    if allowed.get("tools"):
        config["allowedFunctionNames"] = list(allowed["tools"])
    return {"functionCallingConfig": config}


def generate_body(body: dict, history: list) -> dict:
    """The generateContent request that answers an interaction."""
    request = {"contents": history + input_contents(body.get("input"))}
    if body.get("system_instruction"):
        request["systemInstruction"] = {"parts": [{"text": str(body["system_instruction"])}]}
    functions = [{k: t[k] for k in ("name", "description", "parameters") if k in t}
                 for t in body.get("tools") or [] if t.get("type") == "function"]
    tools = [{"functionDeclarations": functions}] if functions else []
    tools += [{_BUILT_IN.get(t.get("type"), t.get("type")): {}} for t in body.get("tools") or []
              if t.get("type") != "function"]
    if tools:
        request["tools"] = tools
    config = body.get("generation_config") or {}
    generation = {_GENERATION[k]: v for k, v in config.items() if k in _GENERATION}
    if config.get("thinking_level"):
        generation["thinkingConfig"] = {"thinkingLevel": str(config["thinking_level"]).upper()}
    formats = body.get("response_format") or []
    for fmt in formats if isinstance(formats, list) else [formats]:  # JSON mode: a text format with a MIME type
        if isinstance(fmt, dict) and fmt.get("type", "text") == "text" and fmt.get("mime_type"):
            generation["responseMimeType"] = fmt["mime_type"]
            if fmt.get("schema"):
                generation["responseJsonSchema"] = fmt["schema"]
    if body.get("response_mime_type"):  # the deprecated spelling
        generation.setdefault("responseMimeType", body["response_mime_type"])
    if generation:
        request["generationConfig"] = generation
    if (tool_config := _tool_config(config.get("tool_choice"))):
        request["toolConfig"] = tool_config
    return request


def _call_id(call: dict, index: int, contents: list) -> str:
    return "call_" + hashlib.sha256(canonical([contents, call, index]).encode()).hexdigest()[:16]


def steps_of(parts: list, contents: list) -> tuple[list, list]:
    """(typed steps, the parts as stored, each call with its id) of the model's answer."""
    steps, stored = [], []
    signature = next((p["thoughtSignature"] for p in parts if p.get("thoughtSignature") and not p.get("thought")), None)
    if signature and not any(p.get("thought") for p in parts):
        # Gemini's steps put the model's thought (and its signature) before the call or the answer
        # (August cookbook Function_calling, saved output: "Type: thought", "Type: function_call").
        steps.append({"type": "thought", "signature": signature, "summary": []})
    for index, part in enumerate(parts):
        if "functionCall" in part:
            call = dict(part["functionCall"])
            call.setdefault("id", _call_id(call, index, contents))
            stored.append(dict(part, functionCall=call))
            steps.append({"type": "function_call", "id": call["id"], "name": call.get("name", ""),
                          "arguments": call.get("args") or {}})
            continue
        stored.append(part)
        if part.get("thought"):
            steps.append({"type": "thought", "signature": part.get("thoughtSignature"), "summary": []})
        elif "text" in part:
            if steps and steps[-1]["type"] == "model_output":
                steps[-1]["content"].append({"type": "text", "text": part["text"]})
            else:
                steps.append({"type": "model_output", "content": [{"type": "text", "text": part["text"]}]})
    return steps, stored


def usage_of(metadata: dict) -> dict:
    """usageMetadata as the Interactions API names it."""
    return {"total_input_tokens": metadata.get("promptTokenCount", 0),
            "total_cached_tokens": metadata.get("cachedContentTokenCount", 0),
            "total_output_tokens": metadata.get("candidatesTokenCount", 0),
            "total_thought_tokens": metadata.get("thoughtsTokenCount", 0),
            "total_tokens": metadata.get("totalTokenCount", 0)}


class Interactions:
    """The stored interactions of one glass box: at most MAX_STORED, the oldest dropped first."""

    def __init__(self):
        self._stored: OrderedDict[str, dict] = OrderedDict()
        self._lock = threading.Lock()
        self._created = 0
        self.clock = time.time  # seconds since the epoch; tests move it to expire a stored interaction

    def _get(self, name: str) -> dict:
        with self._lock:
            record = self._stored.get(name)
            if record is not None and self.clock() - record["stored_at"] > RETENTION_SECONDS:
                del self._stored[name]  # past its retention: gone, as on Gemini
                record = None
            if record is None:
                raise WireError(404, "NOT_FOUND", NOT_FOUND.format(id=name))
            return record

    def create(self, body: dict, version: str, generate) -> dict:
        """Answer and (unless store is false) keep an interaction; `generate(model, body, version)`
        is the glass box's generateContent."""
        if isinstance(body, dict) and body.get("agent"):
            raise invalid(AGENT.format(agent=str(body["agent"])))
        if not isinstance(body, dict) or not body.get("model"):
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
            name = "v1_" + hashlib.sha256(canonical([request, self._created]).encode()).hexdigest()[:24]
        interaction = {"id": name, "model": answer["modelVersion"], "created": now, "updated": now,
                       "status": "requires_action" if any(s["type"] == "function_call" for s in steps)
                       else "completed", "steps": steps, "usage": usage_of(answer["usageMetadata"])}
        if previous:
            interaction["previous_interaction_id"] = previous
        if body.get("store", True):
            user_steps = [{"type": "user_input", "content": body["input"] if isinstance(body["input"], list)
                           else [{"type": "text", "text": body["input"]} if isinstance(body["input"], str)
                                 else body["input"]]}]
            record = {"contents": request["contents"] + [{"role": "model", "parts": stored}],
                      "resource": dict(interaction, steps=user_steps + steps), "stored_at": self.clock()}
            with self._lock:
                self._stored[name] = record
                while len(self._stored) > MAX_STORED:
                    self._stored.popitem(last=False)
        return interaction

    def get(self, name: str) -> dict:
        return self._get(name)["resource"]

    def delete(self, name: str) -> dict:
        with self._lock:
            if self._stored.pop(name, None) is None:
                raise WireError(404, "NOT_FOUND", NOT_FOUND.format(id=name))
        return {}


STORED = Interactions()


def is_route(path: str) -> bool:
    """True for the paths this module serves: {v1,v1beta}/interactions and interactions/{id}."""
    return _PATH.match(path) is not None


def error_body(err: WireError) -> dict:
    """An API error in the Interactions API's shape: a message and a lower-case code word."""
    return {"error": {"message": err.message, "code": _ERROR_CODES.get(err.code, err.status.lower())}}

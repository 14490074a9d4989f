"""An interaction's request as the generateContent request that answers it: its input (a string,
contents, turns with roles, or the steps of a conversation the client keeps), system instruction,
tools and generation config, after the history its `previous_interaction_id` chain holds.

Shapes as google-genai 3.6.1 sends them (google/genai/_gaos/types/interactions/, read 2026-12-01).
Steps sent back become contents as generateContent has them: a run of model steps (thought,
model_output, function_call) one model turn, a run of function_result steps one user turn, each
user_input step a user turn of its own; a thought step's signature goes back onto the call it came
with (interactions.steps_of takes it off), so a call sent back without one meets generateContent's
missing-signature 400.
"""

import json

from harness.engine.fields import ANY, STRUCT, _object, _one_of, _repeated
from harness.engine.wire import invalid

NO_INPUT = "An interaction needs an `input`: a string, a content object or a list of them."
_BUILT_IN = {
    "google_search": "googleSearch",
    "code_execution": "codeExecution",
    "url_context": "urlContext",
}
# Tools that reach out of the machine where generateContent has no field of that name to refuse.
_REMOTE = ("mcp_server", "tool_search")
REMOTE = (
    "tools[{index}].{kind}: the glass box cannot use the {kind} tool (it is offline and reaches no"
    " server), and answering without it would hide that. Declare the functions you need and run"
    " them yourself, or run online with a key."
)
# The create body's fields the glass box reads, typed at every depth (fields.normalise reads the
# body with it before anything else does), as google-genai 3.6.1 sends them
# (google/genai/_gaos/types/ interactions/, read 2026-12-01). A field not listed is kept as sent:
# the API grows often.
INPUT_CONTENT = _object(
    "Content",
    type="string",
    text="string",
    data="string",
    uri="string",
    mime_type="string",
    call_id="string",
    name="string",
    result=ANY,
    id="string",
    arguments=STRUCT,
    signature="string",
    summary=ANY,
    role="string",
)
_CONTENTS = _one_of("string", INPUT_CONTENT, _repeated(_one_of("string", INPUT_CONTENT)))
INPUT_CONTENT[2]["content"] = _CONTENTS  # a turn's or a step's content holds contents
_FORMAT = _object("ResponseFormat", type="string", mime_type="string", schema=STRUCT)
_TOOL_CHOICE = _object(
    "ToolChoice", allowed_tools=_object("AllowedTools", mode="string", tools=_repeated("string"))
)
INTERACTION = _object(
    "CreateInteractionRequest",
    model="string",
    agent="string",
    agent_config=STRUCT,
    input=_CONTENTS,
    previous_interaction_id="string",
    store="bool",
    background="bool",
    stream="bool",
    service_tier="string",
    system_instruction="string",
    response_mime_type="string",
    tools=_repeated(
        _object("Tool", type="string", name="string", description="string", parameters=STRUCT)
    ),
    generation_config=_object(
        "GenerationConfig",
        temperature="float",
        top_p="float",
        max_output_tokens="int",
        stop_sequences=_repeated("string"),
        seed="int",
        response_mime_type="string",
        thinking_level="string",
        thinking_summaries="string",
        tool_choice=_one_of("string", _TOOL_CHOICE),
    ),
    response_format=_one_of(_FORMAT, _repeated(_FORMAT)),
)
_MODEL_STEPS = ("thought", "model_output", "function_call")
_STEPS = _MODEL_STEPS + ("user_input", "function_result")
_GENERATION = {
    "max_output_tokens": "maxOutputTokens",
    "temperature": "temperature",
    "top_p": "topP",
    "stop_sequences": "stopSequences",
    "seed": "seed",
    "response_mime_type": "responseMimeType",
}


def _part(item) -> dict:
    """One input content (a string or a typed dict) as a generateContent part."""
    if isinstance(item, str):
        return {"text": item}
    if not isinstance(item, dict):
        raise invalid(
            "An input content must be a string or an object with a `type`, got"
            f" {type(item).__name__}."
        )
    kind = item.get("type")
    if kind == "text":
        if not isinstance(item.get("text"), str):
            raise invalid(
                f"A text content needs `text` as a string, got {json.dumps(item.get('text'))[:80]}."
            )
        return {"text": item["text"]}
    if kind == "function_result":
        result = item.get("result")
        return {
            "functionResponse": {
                "id": item.get("call_id"),
                "name": item.get("name", ""),
                "response": result if isinstance(result, dict) else {"result": result},
            }
        }
    if kind in ("image", "audio", "video", "document") and item.get("data"):
        return {
            "inlineData": {
                "mimeType": item.get("mime_type", "application/octet-stream"),
                "data": item["data"],
            }
        }
    if kind in ("image", "audio", "video", "document") and item.get("uri"):
        return {
            "fileData": {"fileUri": item["uri"], "mimeType": item.get("mime_type", f"{kind}/*")}
        }
    raise invalid(
        f"The glass box does not read input contents of type {kind!r}: it reads text, "
        "function_result, and image/audio/video/document with data or uri."
    )


def _step_parts(step: dict) -> list[dict]:
    """The parts one step the client sends stands for (a thought stands for none: its signature
    rides on the next part, see _signed)."""
    kind = step["type"]
    if kind == "function_call":
        return [
            {
                "functionCall": {
                    "id": step.get("id"),
                    "name": step.get("name", ""),
                    "args": step.get("arguments") or {},
                }
            }
        ]
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
    return parts[:at] + [dict(parts[at], thoughtSignature=signature)] + parts[at + 1 :]


def _step_contents(steps: list[dict]) -> list[dict]:
    """Steps as contents: a run of model steps (thought, model_output, function_call) is one model
    turn and a run of function_result steps one user turn (the responses to that turn's calls, as
    generateContent wants them); each user_input step is a user turn of its own."""
    contents, previous = [], None
    for step in steps:
        kind = "model" if step["type"] in _MODEL_STEPS else step["type"]
        if kind != previous or kind == "user_input":
            contents.append(
                {"role": "model" if kind == "model" else "user", "parts": [], "signature": None}
            )
        previous = kind
        contents[-1]["parts"] += _step_parts(step)
        if step["type"] == "thought" and step.get("signature"):
            contents[-1]["signature"] = step["signature"]
    return [
        {"role": c["role"], "parts": _signed(c["parts"], c["signature"])}
        for c in contents
        if c["parts"]
    ]


def _turn(index: int, turn: dict) -> dict:
    """One {"role", "content"} turn of the input as a content."""
    content = turn.get("content")
    if content is None or content == []:
        raise invalid(
            f"input[{index}] has a `role` but no `content`: give each turn its text or contents, as"
            " in {'role': 'user', 'content': 'Hello'}."
        )
    if turn["role"] not in ("user", "model", "assistant"):
        raise invalid(
            f"input[{index}] has role {json.dumps(turn['role'])[:40]}: use a valid role, user or"
            " model."
        )
    return {
        "role": "user" if turn["role"] == "user" else "model",
        "parts": [_part(c) for c in (content if isinstance(content, list) else [content])],
    }


def input_contents(value) -> list[dict]:
    """The interaction's input as generateContent contents (role user, or the roles of turns or
    steps)."""
    if value is None or value == "" or value == []:
        raise invalid(NO_INPUT)
    items = value if isinstance(value, list) else [value]
    # a conversation kept client-side
    if all(isinstance(i, dict) and i.get("type") in _STEPS for i in items):
        return _step_contents(items)
    if all(isinstance(i, dict) and "role" in i for i in items):  # turns: [{"role", "content"}]
        return [_turn(index, i) for index, i in enumerate(items)]
    return [{"role": "user", "parts": [_part(i) for i in items]}]


def _tool_config(choice) -> dict | None:
    if choice is None:
        return None
    if isinstance(choice, str):
        return {"functionCallingConfig": {"mode": choice.upper()}}
    allowed = choice.get("allowed_tools") if isinstance(choice, dict) else None
    if not isinstance(allowed, dict):
        raise invalid(
            "generation_config.tool_choice must be a mode ('auto', 'any', 'none', 'validated') or "
            "{'allowed_tools': {'mode': ..., 'tools': [names]}}, got "
            + json.dumps(choice)[:80]
            + "."
        )
    config = {"mode": str(allowed.get("mode", "AUTO")).upper()}
    if allowed.get("tools"):
        config["allowedFunctionNames"] = list(allowed["tools"])
    return {"functionCallingConfig": config}


def _tools(tools) -> list[dict]:
    """The interaction's tools as generateContent's: functions in one declarations list, a built-in
    tool under its own name (for the glass box's 400 naming it, wire.check_built_in_tools)."""
    functions, built_in = [], []
    for index, tool in enumerate(tools):
        kind = tool.get("type") if isinstance(tool, dict) else None
        if not kind:
            raise invalid(
                f"tools[{index}] needs a `type`: 'function' for a function you declare, or a"
                " built-in tool such as 'google_search'."
            )
        if kind == "function" and not tool.get("name"):
            raise invalid(
                f"tools[{index}] is a function with no `name`: name it, as in "
                "{'type': 'function', 'name': 'get_weather', 'parameters': {...}}."
            )
        if kind in _REMOTE:
            raise invalid(REMOTE.format(index=index, kind=kind))
        if kind == "function":
            functions.append(
                {key: tool[key] for key in ("name", "description", "parameters") if key in tool}
            )
        else:
            built_in.append({_BUILT_IN.get(kind, kind): {}})
    return ([{"functionDeclarations": functions}] if functions else []) + built_in


# The SDK's ServiceTier also names "deferred", which the docs describe for Gemini Enterprise Agent
# Platform's global endpoint only ([OFF]
# docs.cloud.google.com/gemini-enterprise-agent-platform/models/deferred-tier, read 2026-12-02).
# NOTE: Gemini's wording for it on the Developer API is quoted nowhere public: the message is ours.
DEFERRED = (
    "service_tier 'deferred' is served by Gemini Enterprise Agent Platform (its global endpoint),"
    " not by the Gemini Developer API: use 'standard', 'flex' or 'priority'."
)


def generate_body(body: dict, history: list) -> dict:
    """The generateContent request that answers an interaction."""
    request = {"contents": history + input_contents(body.get("input"))}
    if body.get("service_tier"):  # the tier asked; checked against generateContent's names there
        if body["service_tier"].lower() == "deferred":
            raise invalid(DEFERRED)
        request["serviceTier"] = body["service_tier"]
    if body.get("system_instruction"):
        request["systemInstruction"] = {"parts": [{"text": str(body["system_instruction"])}]}
    if tools := _tools(body.get("tools") or []):
        request["tools"] = tools
    config = body.get("generation_config") or {}
    if not isinstance(config, dict):
        raise invalid(
            f"Invalid value at 'generation_config' (GenerationConfig), {json.dumps(config)[:80]}"
        )
    generation = {_GENERATION[k]: v for k, v in config.items() if k in _GENERATION}
    thinking = {}
    if config.get("thinking_level"):
        thinking["thinkingLevel"] = str(config["thinking_level"]).upper()
    # the thought step's summary, shown
    if str(config.get("thinking_summaries", "")).lower() == "auto":
        thinking["includeThoughts"] = True
    if thinking:
        generation["thinkingConfig"] = thinking
    formats = body.get("response_format") or []
    # JSON mode: a text format with a MIME type
    for fmt in formats if isinstance(formats, list) else [formats]:
        if not isinstance(fmt, dict):
            raise invalid(
                "response_format must be an object (or a list of them) such as {'type': 'text', "
                f"'mime_type': 'application/json', 'schema': {{...}}}}, got {json.dumps(fmt)[:80]}."
            )
        if fmt.get("type", "text") == "text" and fmt.get("mime_type"):
            generation["responseMimeType"] = fmt["mime_type"]
            if fmt.get("schema"):
                generation["responseJsonSchema"] = fmt["schema"]
    if body.get("response_mime_type"):  # the deprecated spelling
        generation.setdefault("responseMimeType", body["response_mime_type"])
    if generation:
        request["generationConfig"] = generation
    if tool_config := _tool_config(config.get("tool_choice")):
        request["toolConfig"] = tool_config
    return request

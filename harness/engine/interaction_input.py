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
from harness.engine.wire import invalid

NO_INPUT = "An interaction needs an `input`: a string, a content object or a list of them."
_BUILT_IN = {"google_search": "googleSearch", "code_execution": "codeExecution", "url_context": "urlContext"}
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
    thinking = {}
    if config.get("thinking_level"):
        thinking["thinkingLevel"] = str(config["thinking_level"]).upper()
    if str(config.get("thinking_summaries", "")).lower() == "auto":  # the thought step's summary, shown
        thinking["includeThoughts"] = True
    if thinking:
        generation["thinkingConfig"] = thinking
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

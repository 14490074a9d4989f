"""Gemini's OpenAI-compatible endpoint: a Chat Completions request read as a generateContent
request.

The openai SDK (and litellm, langchain's ChatOpenAI ...) pointed at `{base_url}/v1beta/openai/` gets
the glass box's own answer: the request is translated into a generateContent body and answered by
the same `generate` (limits, thought signatures, cache, usage), then shaped as OpenAI's objects
(openai_answers.py). The mapping follows [OFF] ai.google.dev/gemini-api/docs/openai and
ai.google.dev/api/compatibility (read 2026-12-01):

    messages   system / developer -> systemInstruction; user -> user; assistant -> model (its
               tool_calls -> functionCall parts, each signature read back from
               `extra_content.google.thought_signature`); tool -> a functionResponse, named after the
               call its tool_call_id answers (consecutive tool messages make one turn)
    content    a string, or parts: text, image_url (a data: URL), input_audio -> inlineData
    tools      {"type": "function", "function": {...}} -> functionDeclarations (JSON Schema parameters)
    tool_choice  "none" / "auto" / "required" / {"type": "function", ...} -> mode NONE / AUTO / ANY / ANY
               with that name allowed
    settings   max_tokens, max_completion_tokens, temperature, top_p, n, stop, seed, presence_penalty,
               frequency_penalty, response_format, reasoning_effort, extra_body.google.thinking_config
               and cached_content -> generationConfig, cachedContent

    >>> body = chat_to_generate({"model": "gemini-3.8-flash", "messages": [
    ...     {"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}], "max_tokens": 20})
    >>> body == {"contents": [{"role": "user", "parts": [{"text": "Hi"}]}],
    ...          "systemInstruction": {"parts": [{"text": "Be brief."}]}, "generationConfig": {"maxOutputTokens": 20}}
    True

A field the endpoint does not have is a 400, as proto JSON gives it; one with no effect on a
deterministic answer (user, metadata, store, service_tier, parallel_tool_calls, logprobs,
stream_options: Gemini sends usage on every chunk anyway) is read and left.
"""

import hashlib
import json

from harness.engine.fields import ANY, STRUCT, _object, _one_of, _repeated, normalise
from harness.engine.wire import invalid, resolve_model
from harness.models import model_row

# Fields that map onto generationConfig one to one.
SETTINGS = {
    "max_tokens": "maxOutputTokens",
    "max_completion_tokens": "maxOutputTokens",
    "temperature": "temperature",
    "top_p": "topP",
    "n": "candidateCount",
    "seed": "seed",
    "presence_penalty": "presencePenalty",
    "frequency_penalty": "frequencyPenalty",
}
NO_EFFECT = (
    "user",
    "metadata",
    "store",
    "service_tier",
    "parallel_tool_calls",
    "logprobs",
    "top_logprobs",
    "stream_options",
    "stream",
)
FIELDS = {
    "model",
    "messages",
    "tools",
    "tool_choice",
    "stop",
    "response_format",
    "reasoning_effort",
    "extra_body",
    *SETTINGS,
    *NO_EFFECT,
}
# [3P] Gemini's 400 as quoted on discuss.ai.google.dev (2025-12): "Invalid reasoning_effort:
# minimal. Valid values are: high, low, medium, none". For a 2.5 model (budgets, not levels) the
# docs map the efforts to these budgets ([OFF] docs/openai, thinking table; the same figures in
# public client code).
EFFORTS = ("high", "low", "medium", "none")
EFFORT_BUDGETS = {"none": 0, "low": 1024, "medium": 8192, "high": 24576}
TOOL_CHOICES = {"none": "NONE", "auto": "AUTO", "required": "ANY"}
ROLES = ("system", "developer", "user", "assistant", "tool")
# The request's fields typed at every depth, read before anything else (a 400 naming the field,
# never a crash on a value of the wrong type); the shapes of the openai SDK's ChatCompletion params.
_PART = _object(
    "ContentPart",
    type="string",
    text="string",
    image_url=_object("ImageURL", url="string", detail="string"),
    input_audio=_object("InputAudio", data="string", format="string"),
)
_NAMED = _object(
    "Function",
    name="string",
    description="string",
    parameters=STRUCT,
    arguments="string",
    strict="bool",
)
_MESSAGE = _object(
    "ChatMessage",
    role="string",
    content=_one_of("string", _repeated(_PART)),
    name="string",
    tool_call_id="string",
    extra_content=STRUCT,
    tool_calls=_repeated(
        _object("ToolCall", id="string", type="string", function=_NAMED, extra_content=STRUCT)
    ),
)
CHAT = _object(
    "ChatCompletionRequest",
    model="string",
    messages=_repeated(_MESSAGE),
    tools=_repeated(_object("ChatTool", type="string", function=_NAMED)),
    tool_choice=_one_of("string", _object("ToolChoice", type="string", function=_NAMED)),
    stop=_one_of("string", _repeated("string")),
    response_format=STRUCT,
    reasoning_effort="string",
    extra_body=STRUCT,
    stream="bool",
    max_tokens="int",
    max_completion_tokens="int",
    temperature="float",
    top_p="float",
    n="int",
    seed="int",
    presence_penalty="float",
    frequency_penalty="float",
    metadata=ANY,
)


def unknown(name: str, where: str = "") -> Exception:
    at = f" at '{where}'" if where else ""
    return invalid(f'Invalid JSON payload received. Unknown name "{name}"{at}: Cannot find field.')


def call_id(call: dict, position: int) -> str:
    """A tool call's id, the same for the same call: the openai SDK needs one to answer it by."""
    digest = hashlib.sha256(json.dumps([position, call], sort_keys=True).encode()).hexdigest()
    return f"call_{digest[:12]}"


def _parts(content, where: str) -> list[dict]:
    """The Gemini parts of a message's content (a string, or a list of typed parts)."""
    if content is None or content == "":
        return []
    if isinstance(content, str):
        return [{"text": content}]
    if not isinstance(content, list):
        raise invalid(
            f"* {where}.content: content must be a string or a list of parts, not"
            f" {type(content).__name__}."
        )
    return [_part(part, f"{where}.content[{i}]") for i, part in enumerate(content)]


def _part(part, where: str) -> dict:
    kind = part.get("type") if isinstance(part, dict) else None
    if kind == "text":
        return {"text": part.get("text") or ""}
    if kind == "image_url":
        url = (part.get("image_url") or {}).get("url") or ""
        mime, _, data = url.removeprefix("data:").partition(";base64,")
        if not url.startswith("data:") or not data:
            raise invalid(
                f"* {where}.image_url.url: the glass box is offline and fetches no URL; send the "
                "image inline as data:<mime type>;base64,<data>."
            )
        return {"inlineData": {"mimeType": mime, "data": data}}
    if kind == "input_audio":
        audio = part.get("input_audio") or {}
        return {
            "inlineData": {
                "mimeType": f"audio/{audio.get('format') or 'wav'}",
                "data": audio.get("data") or "",
            }
        }
    raise invalid(
        f"* {where}.type: a content part is text, image_url or input_audio, not {kind!r}."
    )


def _calls(message: dict, where: str) -> list[dict]:
    """An assistant message's tool_calls as functionCall parts, signatures put back."""
    parts = []
    for i, call in enumerate(message.get("tool_calls") or []):
        function = call.get("function") or {}
        try:
            args = json.loads(function.get("arguments") or "{}")
        except json.JSONDecodeError:
            args = None
        if not isinstance(args, dict):
            raise invalid(
                f"* {where}.tool_calls[{i}].function.arguments: arguments must be a JSON object "
                f"in a string, as the endpoint gave them, got {function.get('arguments')!r}."
            )
        part = {"functionCall": {"name": function.get("name") or "", "args": args}}
        signature = ((call.get("extra_content") or {}).get("google") or {}).get("thought_signature")
        if signature:
            part["thoughtSignature"] = signature
        parts.append(part)
    return parts


def _response(message: dict, names: dict, where: str) -> dict:
    """A tool message as a functionResponse part: its content as the result (a JSON object kept
    as one)."""
    name = names.get(message.get("tool_call_id"))
    if name is None:
        raise invalid(
            f"* {where}.tool_call_id: no earlier assistant message has a tool call with id "
            f"{message.get('tool_call_id')!r}; send the id the call came with."
        )
    text = "".join(p.get("text", "") for p in _parts(message.get("content"), where))
    try:
        result = json.loads(text)
    except json.JSONDecodeError:
        result = None
    return {
        "functionResponse": {
            "name": name,
            "response": result if isinstance(result, dict) else {"result": text},
        }
    }


def messages_to_contents(messages) -> tuple[list[dict], list[dict]]:
    """(contents, system parts) for the request's messages, in order."""
    if not isinstance(messages, list) or not messages:
        raise invalid(
            '* messages: messages must be a non-empty list of {"role": ..., "content": ...}.'
        )
    contents, system, names, after_tool = [], [], {}, False
    for index, message in enumerate(messages):
        where = f"messages[{index}]"
        role = message.get("role") if isinstance(message, dict) else None
        if role not in ROLES:
            raise invalid(
                f"* {where}.role: {role!r} is not a role here; use one of {', '.join(ROLES)}."
            )
        if role in ("system", "developer"):
            system += _parts(message.get("content"), where)
        elif role == "user":
            contents.append({"role": "user", "parts": _parts(message.get("content"), where)})
        elif role == "assistant":
            calls = _calls(message, where)
            for i, call in enumerate(message.get("tool_calls") or []):
                names[call.get("id")] = calls[i]["functionCall"]["name"]
            contents.append(
                {"role": "model", "parts": _parts(message.get("content"), where) + calls}
            )
        elif after_tool:  # the answers to one assistant message's calls make one turn
            contents[-1]["parts"].append(_response(message, names, where))
        else:
            contents.append({"role": "user", "parts": [_response(message, names, where)]})
        # a system message between answers does not end their turn
        if role not in (
            "system",
            "developer",
        ):
            after_tool = role == "tool"
    return contents, system


def _tools(tools) -> list[dict]:
    declarations = []
    for i, tool in enumerate(tools or []):
        if not isinstance(tool, dict) or tool.get("type") != "function":
            kind = (tool.get("type") or next(iter(tool), None)) if isinstance(tool, dict) else tool
            raise invalid(
                f"* tools[{i}].type: the glass box serves function tools only, not {kind!r} (it is "
                "offline and runs no built-in tool); declare a function instead."
            )
        function = dict(tool.get("function") or {})
        # OpenAI's schema-adherence flag: the glass box's arguments always fit
        function.pop("strict", None)
        # OpenAI sends JSON Schema, which Gemini reads as parametersJsonSchema
        if "parameters" in function:
            function["parametersJsonSchema"] = function.pop("parameters")
        declarations.append(function)
    return [{"functionDeclarations": declarations}] if declarations else []


def _tool_config(choice) -> dict:
    if isinstance(choice, str) and choice in TOOL_CHOICES:
        return {"functionCallingConfig": {"mode": TOOL_CHOICES[choice]}}
    if isinstance(choice, dict) and choice.get("type") == "function":
        name = (choice.get("function") or {}).get("name")
        return {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": [name]}}
    raise invalid(
        '* tool_choice: use "none", "auto", "required" or {"type": "function", '
        f'"function": {{"name": ...}}}}, not {choice!r}.'
    )


def _response_format(form) -> dict:
    kind = form.get("type") if isinstance(form, dict) else form
    if kind == "text":
        return {}
    if kind == "json_object":
        return {"responseMimeType": "application/json"}
    if kind == "json_schema":
        schema = (form.get("json_schema") or {}).get("schema") or {}
        return {"responseMimeType": "application/json", "responseJsonSchema": schema}
    raise invalid(f"* response_format.type: use text, json_object or json_schema, not {kind!r}.")


def _thinking(effort, model: str) -> dict:
    if effort not in EFFORTS:
        raise invalid(f"Invalid reasoning_effort: {effort}. Valid values are: {', '.join(EFFORTS)}")
    levels = model_row(resolve_model(model, "v1beta")).thinking_levels
    if not levels:
        return {"thinkingBudget": EFFORT_BUDGETS[effort]}
    return {"thinkingLevel": (levels[0] if effort == "none" else effort).upper()}


def _google(extra: dict) -> tuple[dict, dict]:
    """(generationConfig entries, request entries) from extra_body's `google` object."""
    google = dict((extra or {}).get("google") or {})
    for name in extra or {}:
        if name != "google":
            raise unknown(name, "extra_body")
    config = (
        {"thinkingConfig": google.pop("thinking_config")} if "thinking_config" in google else {}
    )
    request = {"cachedContent": google.pop("cached_content")} if "cached_content" in google else {}
    if google:
        raise unknown(next(iter(google)), "extra_body.google")
    return config, request


def chat_to_generate(chat: dict) -> dict:
    """The generateContent body that asks what `chat` (a Chat Completions request) asks."""
    chat = normalise(chat, CHAT)
    for name in chat:
        if name not in FIELDS:
            raise unknown(name)
    if not chat.get("model"):
        raise invalid('* model: model is required, e.g. "gemini-3.8-flash".')
    contents, system = messages_to_contents(chat.get("messages"))
    body = {"contents": contents}
    if system:
        body["systemInstruction"] = {"parts": system}
    if tools := _tools(chat.get("tools")):
        body["tools"] = tools
    if chat.get("tool_choice") is not None:
        body["toolConfig"] = _tool_config(chat["tool_choice"])
    config = {SETTINGS[name]: chat[name] for name in SETTINGS if chat.get(name) is not None}
    if chat.get("stop"):
        config["stopSequences"] = [chat["stop"]] if isinstance(chat["stop"], str) else chat["stop"]
    if chat.get("response_format"):
        config.update(_response_format(chat["response_format"]))
    if chat.get("reasoning_effort") is not None:
        config["thinkingConfig"] = _thinking(chat["reasoning_effort"], chat["model"])
    google_config, google_request = _google(chat.get("extra_body"))
    config.update(google_config)
    body.update(google_request)
    if config:
        body["generationConfig"] = config
    return body

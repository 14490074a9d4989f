"""Tools no scenario knows: call a declared function with schema-valid arguments, or answer as the reader.

A request whose declared functions select no registered scenario gets this deterministic behaviour:

    toolConfig.functionCallingConfig.mode is "ANY"    -> call a function (Gemini must, in this mode):
                                                         the first allowed one the last user message
                                                         names, else the first allowed one
    the last user message names a declared function  -> call the first one it names
    otherwise (mode "NONE" included)                 -> the reader answers from the window

    >>> weather = {"name": "get_weather", "parameters": {"type": "OBJECT", "required": ["city"],
    ...            "properties": {"city": {"type": "STRING"}, "days": {"type": "INTEGER"}}}}
    >>> act({"tools": [{"functionDeclarations": [weather]}],
    ...      "contents": [{"role": "user", "parts": [{"text": "Call get_weather for 'Lyon', days: 3."}]}]})
    [{'functionCall': {'name': 'get_weather', 'args': {'city': 'Lyon', 'days': 3}}}]

The arguments follow the declaration's schema (`parameters`, or the JSON schema the SDK sends for
a Python function). A property gets a value when the last user message shows one:
`name: value` or `name=value`, else, for a required property, by its type: a string takes the
first quoted text (else the first capitalised word after the first, else the message), a number the
first number, a boolean "true"/"yes", an enum the first of its values named (else its first value).
Optional properties with nothing visible are left out. Once the call's response is in view and the
mode is not "ANY", the reader answers from it, so the SDK's automatic function calling ends.
"""
import re

from harness.engine import reader
from harness.engine.prompt import content_text

_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_QUOTED = re.compile(r"""["'`]([^"'`]+)["'`]""")
_NAMED_WORD = re.compile(r"(?<=\s)([A-Z][\w-]+)")


def declarations(request: dict) -> list[dict]:
    """Every function declaration of the request's tools, in order."""
    return [d for tool in request.get("tools") or [] for d in tool.get("functionDeclarations") or []]


def _last_user_text(request: dict) -> str:
    contents = request.get("contents") or []
    last = contents[-1] if contents else {}
    return content_text(last) if (last.get("role") or "user") == "user" else ""


def _named_value(name: str, text: str) -> str | None:
    found = re.search(rf"\b{re.escape(name)}\s*[:=]\s*(\"[^\"]*\"|'[^']*'|[^\s,;]+)", text, re.I)
    return found.group(1).strip("\"'").rstrip(".") if found else None


def _typed(kind: str, raw: str | None, schema: dict, text: str):
    """A value of the schema's type from `raw` (a value shown by name) or else from `text`."""
    if schema.get("enum"):
        named = [v for v in schema["enum"] if re.search(rf"\b{re.escape(str(v))}\b", raw or text, re.I)]
        return (named or schema["enum"])[0]
    if kind in ("integer", "number"):
        found = _NUMBER.search(raw or text)
        value = float(found.group(0)) if found else 0
        return int(value) if kind == "integer" else value
    if kind == "boolean":
        return bool(re.search(r"\b(true|yes)\b", raw or text, re.I))
    if kind == "array":
        item = schema.get("items") or {"type": "string"}
        return [_typed(str(item.get("type", "string")).lower(), raw, item, text)] if raw else []
    if kind == "object":
        return arguments(schema, text)
    if raw is not None:
        return raw
    quoted, named = _QUOTED.search(text), _NAMED_WORD.search(text)
    return quoted.group(1) if quoted else named.group(1) if named else text.strip()


def arguments(schema: dict | None, text: str) -> dict:
    """Arguments valid against an OBJECT schema: required properties always, others when visible."""
    properties = (schema or {}).get("properties") or {}
    required = set((schema or {}).get("required") or [])
    args = {}
    for name, prop in properties.items():
        raw = _named_value(name, text)
        if raw is not None or name in required:
            args[name] = _typed(str(prop.get("type", "string")).lower(), raw, prop, text)
    return args


def act(request: dict) -> list[dict]:
    """A call of a declared function, or the reader's reply (see the module docstring)."""
    config = (request.get("toolConfig") or {}).get("functionCallingConfig") or {}
    mode, allowed = str(config.get("mode", "AUTO")).upper(), config.get("allowedFunctionNames")
    candidates = [d for d in declarations(request) if d.get("name") and (not allowed or d["name"] in allowed)]
    text = _last_user_text(request)
    named = [d for d in candidates if re.search(rf"\b{re.escape(d['name'])}\b", text)]
    chosen = (named or candidates)[:1] if mode == "ANY" else named[:1] if mode != "NONE" else []
    if not chosen:
        return reader.respond(request)
    declaration = chosen[0]
    # NOTE: for a Python function the SDK (1.4x) sends its JSON schema under the snake_case key.
    schema = next((declaration[k] for k in ("parameters", "parametersJsonSchema", "parameters_json_schema")
                   if declaration.get(k)), None)
    return [{"functionCall": {"name": declaration["name"], "args": arguments(schema, text)}}]

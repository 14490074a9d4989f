"""Read a request's fields the way Gemini's proto JSON parser does: both spellings, known names
only.

Proto JSON accepts a field under its camelCase JSON name or its snake_case proto name, so
`{"system_instruction": ...}` and `{"systemInstruction": ...}` are the same request, and reads
`null` as "not set". A name the message does not have, a list where one value goes, or a value of
the wrong type is a 400 in the parser's own words ([3P] issue reports quoting Gemini's 400,
2025-2026: "Unknown name ... Cannot find field." google-gemini/gemini-cli #13972; "Proto field is
not repeating, cannot start list." zed-industries/zed #53919; "Invalid value at '...' (type), value"
simonw/llm-gemini #49). The base64 message follows the same pattern; its exact words were not found.

    >>> normalise({"contents": [{"parts": [{"text": "hi"}]}], "generation_config": {"max_output_tokens": 5}})
    {'contents': [{'parts': [{'text': 'hi'}]}], 'generationConfig': {'maxOutputTokens': 5}}
    >>> normalise({"contnets": []})
    Traceback (most recent call last):
    ...
    harness.engine.wire.WireError: 400 INVALID_ARGUMENT: Invalid JSON payload received. Unknown name "contnets": Cannot find field.

Only the messages the glass box reads are described field by field (`GENERATE` below); values
that are data (function arguments and responses, schemas) or that it never reads are kept as sent.
Error paths use the proto names (`contents[0].parts[1].function_call`), as Google's do.
NOTE: a string holding a lone UTF-16 surrogate (`"\\ud800"` in the JSON) is refused here too: it is
not text, and writing it back out would fail later, far from the cause.
"""  # noqa: E501

import functools
import json
import re

from google.genai import types

from harness.engine.wire import invalid

ANY = None  # a value kept as sent: data, or a message the glass box does not read
STRUCT = (  # a JSON object kept as sent (google.protobuf.Struct: function arguments, schemas)
    "struct"
)
_TYPES = {
    "string": (str, "TYPE_STRING"),
    "int": (int, "TYPE_INT32"),
    "float": ((int, float), "TYPE_FLOAT"),
    "bool": (bool, "TYPE_BOOL"),
    "bytes": (str, "TYPE_BYTES"),
    STRUCT: (dict, "type.googleapis.com/google.protobuf.Struct"),
}
# a regex scan: a per-character loop was the engine's hot spot
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
# proto JSON reads standard and URL-safe base64, padded or not
_BASE64 = re.compile(r"[A-Za-z0-9+/_-]*={0,2}")
_V = "type.googleapis.com/google.ai.generativelanguage.v1beta."
# The service tiers a request may name, upper-cased as _enum compares them: the SDK's ("flex") and
# the proto's ("SERVICE_TIER_FLEX", which the docs' own snippet sent in 2026; compat/tiers.py).
_TIERS = ("UNSPECIFIED", "STANDARD", "FLEX", "PRIORITY")
SERVICE_TIERS = _TIERS + tuple(f"SERVICE_TIER_{name}" for name in _TIERS)


def _message(message_type: str, **fields) -> tuple:
    return ("message", message_type, fields)


def _repeated(spec) -> tuple:
    return ("repeated", spec)


def _enum(enum_type: str, values) -> tuple:
    """An enum field: its proto type (named in the 400) and the names it takes (read
    case-insensitively, as Gemini takes the docs' lowercase `"type": "object"`)."""
    return ("enum", enum_type, tuple(getattr(value, "value", value) for value in values))


def _map(spec) -> tuple:
    """A map<string, spec>: the keys are data (property names), kept exactly as sent."""
    return ("map", spec)


def _object(object_type: str, **fields) -> tuple:
    """An object of a JSON API (the Interactions API, the OpenAI-compatible endpoint): names kept as
    sent, each listed field typed; a name it does not list is kept as sent (those APIs grow)."""
    return ("object", object_type, fields)


def _one_of(*specs) -> tuple:
    """A field that takes one of several JSON types (a string, an object or a list of them): the
    first spec whose JSON type the value has reads it."""
    return ("one_of", specs)


# The enums' names as the installed SDK lists them ([OFF] google-genai 3.6.1 types, 2026-12-01).
MODE = _enum("FunctionCallingConfig.Mode", types.FunctionCallingConfigMode)
HARM_CATEGORY = _enum("HarmCategory", types.HarmCategory)
THRESHOLD = _enum("SafetySetting.HarmBlockThreshold", types.HarmBlockThreshold)
# [OFF] ai.google.dev/api/caching#Schema (read 2026-12-01): the OpenAPI subset Gemini reads. It has
# no `additionalProperties` nor `$schema`: those belong in responseJsonSchema /
# parametersJsonSchema.
SCHEMA = _message(
    "Schema",
    type=_enum("Type", types.Type),
    format="string",
    title="string",
    description="string",
    nullable="bool",
    enum=_repeated("string"),
    maxItems="int",
    minItems="int",
    required=_repeated("string"),
    minProperties="int",
    maxProperties="int",
    minLength="int",
    maxLength="int",
    pattern="string",
    example=ANY,
    propertyOrdering=_repeated("string"),
    default=ANY,
    minimum="float",
    maximum="float",
)
# a schema nests schemas
SCHEMA[2].update(items=SCHEMA, anyOf=_repeated(SCHEMA), properties=_map(SCHEMA))
TOOL_CONFIG = _message(
    "ToolConfig",
    functionCallingConfig=_message(
        "FunctionCallingConfig", mode=MODE, allowedFunctionNames=_repeated("string")
    ),
    retrievalConfig=ANY,
)
SAFETY_SETTING = _message("SafetySetting", category=HARM_CATEGORY, threshold=THRESHOLD)


PART = _message(
    "Part",
    text="string",
    thought="bool",
    thoughtSignature="bytes",
    functionCall=_message("FunctionCall", id="string", name="string", args=STRUCT),
    functionResponse=_message(
        "FunctionResponse",
        id="string",
        name="string",
        response=STRUCT,
        willContinue="bool",
        scheduling=ANY,
        parts=ANY,
    ),
    inlineData=_message("Blob", mimeType="string", data="bytes"),
    fileData=_message("FileData", mimeType="string", fileUri="string"),
    executableCode=ANY,
    codeExecutionResult=ANY,
    videoMetadata=ANY,
    partMetadata=ANY,
    mediaResolution=ANY,
    toolCall=ANY,
    toolResponse=ANY,
)
CONTENT = _message("Content", role="string", parts=_repeated(PART))
THINKING = _message(
    "ThinkingConfig", includeThoughts="bool", thinkingBudget="int", thinkingLevel="string"
)
GENERATION = _message(
    "GenerationConfig",
    temperature="float",
    topP="float",
    topK="int",
    candidateCount="int",
    maxOutputTokens="int",
    stopSequences=_repeated("string"),
    seed="int",
    presencePenalty="float",
    frequencyPenalty="float",
    responseLogprobs="bool",
    logprobs="int",
    responseMimeType="string",
    responseSchema=SCHEMA,
    responseJsonSchema=STRUCT,
    responseModalities=_repeated("string"),
    mediaResolution=ANY,
    speechConfig=ANY,
    imageConfig=ANY,
    thinkingConfig=THINKING,
    enableEnhancedCivicAnswers="bool",
)
FUNCTION_DECLARATION = _message(
    "FunctionDeclaration",
    name="string",
    description="string",
    parameters=SCHEMA,
    parametersJsonSchema=STRUCT,
    response=SCHEMA,
    responseJsonSchema=ANY,
    behavior=ANY,
)
TOOL = _message(
    "Tool",
    functionDeclarations=_repeated(FUNCTION_DECLARATION),
    googleSearch=ANY,
    googleSearchRetrieval=ANY,
    codeExecution=ANY,
    urlContext=ANY,
    computerUse=ANY,
    fileSearch=ANY,
    googleMaps=ANY,
    enterpriseWebSearch=ANY,
    retrieval=ANY,
)
GENERATE = _message(
    "GenerateContentRequest",
    model="string",
    contents=_repeated(CONTENT),
    systemInstruction=CONTENT,
    tools=_repeated(TOOL),
    toolConfig=TOOL_CONFIG,
    safetySettings=_repeated(SAFETY_SETTING),
    generationConfig=GENERATION,
    cachedContent="string",
    labels=ANY,
    serviceTier=_enum("ServiceTier", SERVICE_TIERS),
    store="bool",
)
CACHED = _message(
    "CachedContent",
    name="string",
    model="string",
    displayName="string",
    contents=_repeated(CONTENT),
    systemInstruction=CONTENT,
    tools=_repeated(TOOL),
    toolConfig=TOOL_CONFIG,
    ttl="string",
    expireTime="string",
)
COUNT = _message(
    "CountTokensRequest",
    contents=_repeated(CONTENT),
    generateContentRequest=GENERATE,
    model="string",
)


# a few hundred field names, read once per field of every request
@functools.lru_cache(maxsize=1024)
def snake(name: str) -> str:
    """`maxOutputTokens` -> `max_output_tokens` (the proto name, used in error paths)."""
    return re.sub(r"(?<!^)([A-Z])", r"_\1", name).lower()


@functools.lru_cache(maxsize=1024)
def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(word[:1].upper() + word[1:] for word in rest)


def _is_base64(value: str) -> bool:
    return bool(_BASE64.fullmatch(value)) and len(value.rstrip("=")) % 4 != 1


def _number(spec: str, value):
    """`value` read as proto JSON reads a number field, or None when it is not one: an int field
    takes 40, 40.0 and "40" (what the SDK and hand-written JSON send); a float field also takes
    "0.5", "NaN" and "Infinity" (a NaN then fails its range check, as on Gemini)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        try:
            value = (
                float(value)
                if spec == "float" or "." in value or "e" in value.lower()
                else int(value)
            )
        except ValueError:
            return None
    if spec == "float" and isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value if isinstance(value, int) else None


def _at(path: str) -> str:
    return f" at '{path}'" if path else ""


SHOWN_CHARACTERS = 80  # an error message quotes this much of a bad value, never a whole 20 MB body


def _shown(value) -> str:
    shown = f'"{value}"' if isinstance(value, str) else json.dumps(value)
    return shown if len(shown) <= SHOWN_CHARACTERS else shown[:SHOWN_CHARACTERS] + "..."


def _json_type(spec) -> tuple:
    """The Python types of the JSON values `spec` reads."""
    if spec is ANY:
        return (object,)
    if isinstance(spec, str):
        return (int, float, str) if spec in ("int", "float") else (_TYPES[spec][0],)
    return {"enum": (str,), "repeated": (list,), "one_of": (object,)}.get(spec[0], (dict,))


def _label(spec) -> str:
    if isinstance(spec, str):
        return _TYPES[spec][1] if spec in _TYPES else spec
    return {"repeated": "list", "map": "map"}.get(spec[0], spec[1] if len(spec) > 2 else "value")


def _check_text(value: str, path: str) -> None:
    if _LONE_SURROGATE.search(value):
        raise invalid(
            f"Invalid JSON payload received. Invalid string{_at(path)}: it holds a lone UTF-16 "
            "surrogate (an unpaired \\ud800-\\udfff escape); send text as UTF-8."
        )


def _any(value, path: str):
    """A value kept as sent, once its strings are known to be text."""
    if isinstance(value, str):
        _check_text(value, path)
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_text(key, path)
            _any(item, path)
    elif isinstance(value, list):
        for item in value:
            _any(item, path)
    return value


def _read(spec, value, path: str, name: str):
    if spec is ANY:
        return _any(value, path)
    if spec in ("int", "float") and (number := _number(spec, value)) is not None:
        return number
    if isinstance(spec, str):
        kind, label = _TYPES[spec]
        if not isinstance(value, kind) or (spec != "bool" and isinstance(value, bool)):
            raise invalid(f"Invalid value at '{path}' ({label}), {_shown(value)}")
        if isinstance(value, (str, dict)):
            _any(value, path)
        if spec == "bytes" and not _is_base64(value):
            raise invalid(
                f"Invalid value at '{path}' ({label}), Base64 decoding failed for \"{value[:80]}\""
            )
        return value
    if spec[0] == "enum":
        return _enum_value(spec, value, path)
    if spec[0] == "one_of":
        for option in spec[1]:
            a_bool_elsewhere = isinstance(value, bool) and option != "bool"
            if isinstance(value, _json_type(option)) and not a_bool_elsewhere:
                return _read(option, value, path, name)
        labels = " or ".join(_label(option) for option in spec[1])
        raise invalid(f"Invalid value at '{path}' ({labels}), {_shown(value)}")
    if spec[0] == "object":
        if not isinstance(value, dict):
            raise invalid(f"Invalid value at '{path}' ({spec[1]}), {_shown(value)}")
        fields = spec[2]
        return {
            key: (
                _read(fields[key], item, f"{path}.{key}" if path else key, key)
                if key in fields
                else _any(item, path)
            )
            for key, item in value.items()
            if item is not None
        }
    if spec[0] == "map":
        if not isinstance(value, dict):
            raise invalid(f"Invalid value at '{path}' (map), {_shown(value)}")
        return {
            _any(key, path): _read(spec[1], item, f"{path}[{key!r}]", key)
            for key, item in value.items()
        }
    if spec[0] == "repeated":
        if not isinstance(value, list):  # proto JSON reads a lone value as a list of one
            return [_read(spec[1], value, path, name)]
        return [_read(spec[1], item, f"{path}[{i}]", name) for i, item in enumerate(value)]
    _, message, fields = spec
    if isinstance(value, list):
        raise invalid(
            f'Invalid JSON payload received. Unknown name "{name}"{_at(path.rpartition(".")[0])}: '
            "Proto field is not repeating, cannot start list."
        )
    if not isinstance(value, dict):
        raise invalid(f"Invalid value at '{path}' ({_V}{message}), {_shown(value)}")
    out = {}
    for key, item in value.items():
        if item is None:  # proto JSON reads null as "not set"
            continue
        field = _camel(key)
        if field not in fields:
            raise invalid(
                f'Invalid JSON payload received. Unknown name "{key}"{_at(path)}: Cannot find'
                " field."
            )
        out[field] = _read(
            fields[field], item, f"{path}.{snake(field)}" if path else snake(field), key
        )
    return out


def _enum_value(spec: tuple, value, path: str) -> str:
    _, enum_type, names = spec
    if isinstance(value, str) and value.upper() in names:
        return value
    raise invalid(f"Invalid value at '{path}' ({_V}{enum_type}), {_shown(value)}")


def normalise(body: dict, spec=GENERATE) -> dict:
    """The request with every field under its camelCase name; a 400 for what proto JSON refuses."""
    return _read(spec, body, "", "")

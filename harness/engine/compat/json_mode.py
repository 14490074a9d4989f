"""JSON mode: an answer that parses and validates against the schema it was asked for.

With `responseMimeType: application/json` the glass box answers with JSON. Given a schema, in
either dialect, `responseSchema` (the OpenAPI subset, types in capitals, as the SDK makes it from a
pydantic model, `list[Model]`, a TypedDict, an Enum or a Literal) or `responseJsonSchema` (JSON
Schema, `$ref` into `$defs`, as `Model.model_json_schema()` makes it), the answer fits it at every
level and takes its values from the prompt where it shows them (json_fill.py, json_prompt.py):

    >>> answer = {"text": 'Noted: "List 2 popular cookie recipes."'}
    >>> request = {"contents": [{"role": "user", "parts": [{"text": "List 2 popular cookie recipes."}]}]}
    >>> shape_answer([answer], {"responseMimeType": JSON, "responseSchema": {"type": "ARRAY", "items": {
    ...     "type": "OBJECT", "properties": {"recipe_name": {"type": "STRING"}}}}}, request)
    [{'text': '[{"recipe_name": "Popular cookie recipe 1"}, {"recipe_name": "Popular cookie recipe 2"}]'}]

Without a schema the answer is `{"answer": text}`, or the shape the prompt spells out in Python
(`Recipe = {'recipe_name': str}` and `Return: list[Recipe]`, as the Gemini cookbook's JSON mode
quickstart asks). `text/x.enum` answers one member of the enum schema as plain text: the one the
prompt names, else the first.
"""

import json
import math

from harness.engine.compat.json_fill import enum_of, fill
from harness.engine.compat.json_prompt import Prompt, described_schema
from harness.engine.fields import snake
from harness.engine.prompt import content_text, system_text
from harness.engine.wire import invalid

JSON = "application/json"
ENUM = "text/x.enum"


# What each schema keyword the glass box reads must hold (the wording of these 400s is the glass
# box's own: Gemini's for a schema of the wrong shape was not found). A count is a whole number >=
# 0.
_KEYWORDS = {
    "properties": "object",
    "$defs": "object",
    "items": "schema",
    "prefixItems": "array",
    "anyOf": "array",
    "oneOf": "array",
    "any_of": "array",
    "allOf": "array",
    "enum": "array",
    "required": "strings",
    "propertyOrdering": "strings",
    "$ref": "string",
    "format": "string",
    "minItems": "count",
    "maxItems": "count",
    "minLength": "count",
    "maxLength": "count",
    "minimum": "number",
    "maximum": "number",
    "exclusiveMinimum": "number",
    "exclusiveMaximum": "number",
}
_SAYS = {
    "object": "a JSON object",
    "schema": "a JSON object (or a boolean)",
    "array": "a JSON array",
    "strings": "a JSON array of strings",
    "string": "a JSON string",
    "count": "a whole number, 0 or more",
    "number": "a finite number",
}


def _fits(kind: str, value) -> bool:
    if kind == "schema":
        return isinstance(value, (dict, bool))
    if kind in ("count", "number"):
        if (
            isinstance(value, bool)
            or not isinstance(value, (int, float))
            or not math.isfinite(value)
        ):
            return False
        return kind == "number" or (float(value).is_integer() and value >= 0)
    if kind == "strings":
        return isinstance(value, list) and all(isinstance(item, str) for item in value)
    return isinstance(value, {"object": dict, "array": list, "string": str}[kind])


def _subschemas(key: str, value) -> dict:
    """The schemas nested under one keyword, by the name that locates them."""
    if key in ("properties", "$defs"):
        return value
    if key == "items":
        return {"": value} if isinstance(value, dict) else {}
    if key in ("anyOf", "oneOf", "any_of", "allOf", "prefixItems"):
        return dict(enumerate(value))
    return {}


def check_schema(schema: dict, path: str) -> None:
    """A 400 naming the first keyword of `schema` (or of a schema nested in it) holding the wrong
    type."""
    for key, kind in _KEYWORDS.items():
        value = schema.get(key)
        if value is None:
            continue
        if not _fits(kind, value):
            raise invalid(
                f"Invalid value at '{path}.{key}': a schema's {key} must be {_SAYS[kind]}, "
                f"not {json.dumps(value)}."
            )
        for name, child in _subschemas(key, value).items():
            where = f"{path}.{key}[{name}]" if name != "" else f"{path}.{key}"
            if not isinstance(child, dict):
                raise invalid(
                    f"Invalid value at '{where}': a schema must be a JSON object, not"
                    f" {json.dumps(child)}."
                )
            check_schema(child, where)


def _prompt(request: dict, answer: str) -> Prompt:
    """What the request shows: its latest user turn, the rest of its window, and the reader's
    answer when that turn asks a question (an acknowledgement of an instruction is no answer)."""
    contents = request.get("contents") or []
    users = [
        i
        for i, c in enumerate(contents)
        if (c.get("role") or "user") == "user" and content_text(c).strip()
    ]
    last = users[-1] if users else None
    text = content_text(contents[last]) if last is not None else ""
    context = "\n".join(
        [system_text(request)] + [content_text(c) for i, c in enumerate(contents) if i != last]
    )
    return Prompt(text, context, answer if "?" in text else "")


def _answer_value(schema, prompt: Prompt, mime: str):
    if mime == ENUM:  # one member as text; without an enum schema, the reply as text
        return (
            str(fill(schema, prompt))
            if enum_of(schema or {})
            else prompt.reply() or prompt.text.strip()
        )
    if not schema:  # one spelled out in the turn, else in the system instruction or earlier turns
        schema = described_schema(prompt.text) or described_schema(prompt.context)
    if not schema:
        return {"answer": prompt.reply() or prompt.text.strip()}
    return fill(schema, prompt)


def shape_answer(parts: list, config: dict, request: dict | None = None) -> list:
    """The answer's parts, rewritten for JSON mode or enum mode; unchanged otherwise or for
    calls."""
    for field in ("responseSchema", "responseJsonSchema"):
        if config.get(field):
            check_schema(config[field], f"generation_config.{snake(field)}")
    mime = config.get("responseMimeType") or ""
    if mime not in (JSON, ENUM) or any("text" not in part for part in parts):
        return parts
    prompt = _prompt(request or {}, "\n".join(part["text"] for part in parts))
    value = _answer_value(
        config.get("responseJsonSchema") or config.get("responseSchema"), prompt, mime
    )
    return [{"text": value if mime == ENUM else json.dumps(value, ensure_ascii=False)}]

"""JSON mode: an answer that parses and fits the schema it was asked for, built from the window.

With `responseMimeType: application/json` the glass box writes its usual answer (the reader's, the
summariser's) into the schema: every string field gets the answer's text, an enum the first value
the answer mentions (else its first value), and every other field the type's default. Both schema
dialects are read: `responseSchema` (OpenAPI subset, types in capitals) and `responseJsonSchema`
(JSON Schema, with `$ref` into `$defs`). Without a schema the answer is `{"answer": text}`.

    >>> fill({"type": "OBJECT", "properties": {"rate": {"type": "STRING"}, "pages": {"type": "INTEGER"},
    ...       "sure": {"type": "BOOLEAN"}, "tags": {"type": "ARRAY", "items": {"type": "STRING"}}}},
    ...      "The VAT rate is 20%.")
    {'rate': 'The VAT rate is 20%.', 'pages': 0, 'sure': False, 'tags': []}
    >>> fill({"enum": ["low", "high"], "type": "string"}, "The risk is high.")
    'high'

`text/x.enum` answers with the chosen enum value as plain text.
"""
import json

from harness.engine.fields import snake
from harness.engine.wire import invalid

JSON = "application/json"
ENUM = "text/x.enum"
_DEFAULTS = {"integer": 0, "number": 0.0, "boolean": False, "null": None}


def _type(schema: dict) -> str:
    kind = schema.get("type")
    if isinstance(kind, list):  # JSON Schema's ["string", "null"]
        kind = next((k for k in kind if str(k).lower() != "null"), "null")
    if kind is None:
        kind = "object" if "properties" in schema else "array" if "items" in schema else "string"
    return str(kind).lower()


def _resolve(schema: dict, root: dict) -> dict:
    reference = schema.get("$ref", "")
    if reference.startswith("#/"):
        target = root
        for key in reference[2:].split("/"):
            target = target.get(key, {}) if isinstance(target, dict) else {}
        return target
    return schema


# What each schema keyword the glass box reads must hold.
_KEYWORDS = {"properties": dict, "items": dict, "enum": list, "anyOf": list, "oneOf": list, "any_of": list,
             "propertyOrdering": list, "minItems": int, "$defs": dict, "$ref": str}
_NAMES = {dict: "object", list: "array", int: "integer", str: "string"}


def _subschemas(key: str, value) -> dict:
    """The schemas nested under one keyword, by the name that locates them."""
    if key in ("properties", "$defs"):
        return value
    if key == "items":
        return {"": value}
    if key in ("anyOf", "oneOf", "any_of"):
        return dict(enumerate(value))
    return {}


def check_schema(schema: dict, path: str) -> None:
    """A 400 naming the first keyword of `schema` (or of a schema nested in it) holding the wrong type."""
    for key, kind in _KEYWORDS.items():
        value = schema.get(key)
        if value is None:
            continue
        if not isinstance(value, kind) or isinstance(value, bool):
            raise invalid(f"Invalid value at '{path}.{key}': a schema's {key} must be a JSON {_NAMES[kind]}, "
                          f"not {json.dumps(value)}.")
        for name, child in _subschemas(key, value).items():
            where = f"{path}.{key}[{name}]" if name != "" else f"{path}.{key}"
            if not isinstance(child, dict):
                raise invalid(f"Invalid value at '{where}': a schema must be a JSON object, not {json.dumps(child)}.")
            check_schema(child, where)


def fill(schema: dict, text: str, root: dict | None = None):
    """A value of `schema`'s shape holding `text` in its string fields (see the module docstring)."""
    root = root or schema
    schema = _resolve(schema if isinstance(schema, dict) else {}, root)
    for union in ("anyOf", "oneOf", "any_of"):
        if schema.get(union):
            return fill(schema[union][0], text, root)
    if schema.get("enum"):
        mentioned = [value for value in schema["enum"] if str(value).lower() in text.lower()]
        return (mentioned or schema["enum"])[0]
    kind = _type(schema)
    if kind == "object":
        properties = schema.get("properties") or {}
        order = schema.get("propertyOrdering") or list(properties)
        return {name: fill(properties[name], text, root) for name in order if name in properties}
    if kind == "array":
        return [fill(schema.get("items") or {}, text, root) for _ in range(int(schema.get("minItems") or 0))]
    if kind in _DEFAULTS:
        return schema.get("minimum", _DEFAULTS[kind]) if kind in ("integer", "number") else _DEFAULTS[kind]
    return text


def shape_answer(parts: list, config: dict) -> list:
    """The answer's parts, rewritten for JSON mode or enum mode; unchanged otherwise or for calls."""
    for field in ("responseSchema", "responseJsonSchema"):
        if config.get(field):
            check_schema(config[field], f"generation_config.{snake(field)}")
    mime = config.get("responseMimeType") or ""
    if mime not in (JSON, ENUM) or any("text" not in part for part in parts):
        return parts
    text = "\n".join(part["text"] for part in parts)
    schema = config.get("responseJsonSchema") or config.get("responseSchema")
    if mime == ENUM:
        answer = str(fill(schema or {}, text))
    else:
        answer = json.dumps(fill(schema, text) if schema else {"answer": text}, ensure_ascii=False)
    return [{"text": answer}]

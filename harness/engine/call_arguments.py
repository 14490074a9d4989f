"""The arguments of a function call, filled from what the request shows and valid against its schema.

`arguments(schema, clause, context)` reads the clause that asks for the call first, then the rest
of the turn (`context`: the whole message and the function results already in view). A property
gets a value when one is shown, and a required property always gets one, by its type:

    shown by name      `name: value` or `name=value`, converted to the property's type
    enum               the first of its values named, else its first value
    string             quoted text, else a date for a *date* property, else a proper name
                       ('in Mountain View, CA' -> 'Mountain View, CA'; two string properties
                       take two different names), else the clause
    integer, number    the numbers shown, in order, one per property; else the schema's
                       default, the middle of its minimum and maximum, its minimum, or else
                       1 (integer) and 0.5 (number)
    boolean            false when the clause says off, stop, no, not, disable...; else true
    array, object      a list of the value shown by name (else empty); an object's own properties

    >>> schema = {"type": "OBJECT", "required": ["a", "b"], "properties": {"a": {"type": "NUMBER"},
    ...           "b": {"type": "NUMBER"}}}
    >>> arguments(schema, "I have 57 cats, each owns 44 mittens.")
    {'a': 57.0, 'b': 44.0}
    >>> arguments({"required": ["location"], "properties": {"location": {"type": "string"}}},
    ...           "Which theaters in Mountain View, CA show the Barbie movie?")
    {'location': 'Mountain View, CA'}

Optional properties with nothing shown are left out. Types are read case-insensitively (the
SDK sends "STRING" for a `types.Schema`, "string" for a Python function's JSON schema).
"""
import re

_NUMBER = re.compile(r"(?<![\w/])-?\d+(?:\.\d+)?(?![\w/])")
_QUOTED = re.compile(r"""["'`]([^"'`]+)["'`]""")
_DATE = re.compile(r"\b\d{1,4}[/-]\d{1,2}[/-]\d{1,4}\b")
_PROPER = re.compile(r"[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*(?:,\s*[A-Z]{2}\b)?")
_NEGATION = re.compile(r"\b(off|stop|no|not|never|disable|without|false|don't|quiet)\b", re.I)


def _named_value(name: str, text: str) -> str | None:
    found = re.search(rf"\b{re.escape(name)}\s*[:=]\s*(\"[^\"]*\"|'[^']*'|[^\s,;]+)", text, re.I)
    return found.group(1).strip("\"'").rstrip(".") if found else None


def proper_names(text: str) -> list[str]:
    """Capitalised runs, less a capitalised word that only starts a sentence ('I' is no name)."""
    names = []
    for found in _PROPER.finditer(text):
        phrase, before = found.group(0), text[:found.start()].rstrip()
        if not before or before[-1] in ".!?:\n\"'":
            phrase = phrase.partition(" ")[2].lstrip(", ") if " " in phrase else ""
        if phrase and phrase != "I" and not phrase.startswith("I'"):
            names.append(phrase)
    return names


class _Reader:
    """What one call's arguments may take from the clause, then the context; each number and each
    proper name goes to one property only."""

    def __init__(self, clause: str, context: str):
        self.clause, self.texts = clause, [clause, context]
        self.numbers = [n for text in self.texts for n in _NUMBER.findall(text)]
        self.names = [n for text in self.texts for n in proper_names(text)]

    def number(self, schema: dict, integer: bool):
        if self.numbers:
            value = float(self.numbers.pop(0))
        elif "default" in schema:
            value = float(schema["default"])
        elif "minimum" in schema and "maximum" in schema:
            value = (float(schema["minimum"]) + float(schema["maximum"])) / 2
        else:
            value = float(schema.get("minimum", 1 if integer else 0.5))
        return int(value) if integer else value

    def string(self, name: str):
        for text in self.texts:
            quoted = _QUOTED.search(text)
            if quoted:
                return quoted.group(1)
            dated = _DATE.search(text) if "date" in name.lower() else None
            if dated:
                return dated.group(0)
        return self.names.pop(0) if self.names else self.clause.strip()


def _typed(kind: str, raw: str | None, schema: dict, name: str, reader: _Reader):
    """A value of the schema's type from `raw` (a value shown by name) or else from the reader."""
    if schema.get("enum"):
        for text in (raw, reader.clause, *reader.texts[1:]):
            named = [v for v in schema["enum"] if text and re.search(rf"\b{re.escape(str(v))}\b", text, re.I)]
            if named:
                return named[0]
        return schema["enum"][0]
    if kind in ("integer", "number"):
        if raw is not None and _NUMBER.search(raw):
            value = float(_NUMBER.search(raw).group(0))
            return int(value) if kind == "integer" else value
        return reader.number(schema, kind == "integer")
    if kind == "boolean":
        if raw is not None:
            return bool(re.search(r"\b(true|yes|on|1)\b", raw, re.I))
        return not _NEGATION.search(reader.clause)
    if kind == "array":
        item = schema.get("items") or {"type": "string"}
        return [_typed(str(item.get("type", "string")).lower(), raw, item, name, reader)] if raw else []
    if kind == "object":
        return _fill(schema, reader)
    return raw if raw is not None else reader.string(name)


def _fill(schema: dict | None, reader: _Reader) -> dict:
    properties = (schema or {}).get("properties") or {}
    required = set((schema or {}).get("required") or [])
    args = {}
    for name, prop in properties.items():
        prop = prop if isinstance(prop, dict) else {}
        raw = next((v for text in reader.texts if (v := _named_value(name, text)) is not None), None)
        if raw is not None or name in required:
            args[name] = _typed(str(prop.get("type", "string")).lower(), raw, prop, name, reader)
    return args


def arguments(schema: dict | None, clause: str, context: str = "") -> dict:
    """Arguments valid against an OBJECT schema: required properties always, others when shown."""
    return _fill(schema, _Reader(clause, context))

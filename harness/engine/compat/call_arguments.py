"""The arguments of a function call, filled from what the request shows and valid against its
schema.

`arguments(schema, clause, context, results)` reads the clause that asks for the call first, then
the rest of the user's turn (`context`), then the function results already in view (`results`). A
property gets a value when one is shown, and a required property always gets one, by its type:

    shown by name      `name: value` or `name=value`, converted to the property's type
    enum               the first of its values named, else its first value
    string             quoted text in the turn; a date for a *date* property, a clock time for
                       a *time* one; a proper name: the one next to a word of the property's name
                       ('the Barbie movie' -> movie), for a place (location, city...) the one after
                       in/at/near/from/to ('in Mountain View, CA' -> 'Mountain View, CA'), else the
                       next one not taken; else a quoted value returned by a function named like
                       the property (theater <- find_theaters); else the clause
    integer, number    a number next to a word of the property ('for 2 passengers'), else the
                       numbers shown (not those of a date or a time), in order, one per property; else the schema's
                       default, the middle of its minimum and maximum, its minimum, or else
                       1 (integer) and 0.5 (number)
    boolean            false when the clause says off, stop, no, not, disable...; else true
    array              the value shown by name; else, of strings, every name the clause shows
                       ('with Bob and Alice' -> ['Bob', 'Alice']), of numbers, every number
    object             its own properties, by the same rules

    >>> schema = {"type": "OBJECT", "required": ["a", "b"], "properties": {"a": {"type": "NUMBER"},
    ...           "b": {"type": "NUMBER"}}}
    >>> arguments(schema, "I have 57 cats, each owns 44 mittens.")
    {'a': 57.0, 'b': 44.0}
    >>> arguments({"required": ["location", "movie"], "properties": {"location": {"type": "string"},
    ...            "movie": {"type": "string"}}}, "Which theaters in Mountain View, CA show the Barbie movie?")
    {'location': 'Mountain View, CA', 'movie': 'Barbie'}

`argument_sets` makes one set per value when the clause lists several for the one property that
takes a name ("the weather in Paris, London and Tokyo": three calls, as Gemini makes them).
Optional properties with nothing shown are left out; an optional string takes a name that fits it
('travel to Paris' -> destination). Types are read case-insensitively (the SDK
sends "STRING" for a `types.Schema`, "string" for a Python function's JSON schema).
"""

import ast
import json
import re

from harness.engine.reader import content_words

_NUMBER = re.compile(r"(?<![\w/:])-?\d+(?:\.\d+)?(?![\w/:])")
_QUOTED = re.compile(r"""["'`]([^"'`]+)["'`]""")
_DATE = re.compile(r"\b\d{1,4}[/-]\d{1,2}[/-]\d{1,4}\b")
_TIME = re.compile(r"\b\d{1,2}:\d{2}(?:\s?[AaPp]\.?[Mm]\.?)?(?!\w)")
_PROPER = re.compile(r"[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*(?:,\s*[A-Z]{2}\b)?")
_COUNTED = re.compile(r"(?<![\w/:.-])(\d+(?:\.\d+)?)\s+([A-Za-z]+)")  # '2 passengers', '3 nights'
_NEGATION = re.compile(r"\b(off|stop|no|not|never|disable|without|false|don't|quiet)\b", re.I)
_LIST_JOIN = re.compile(r"\s*(?:,|,?\s*(?:and|or|&))\s*", re.I)  # what joins the names of a list
_PLACE = re.compile(r"\b(?:in|at|near|from|to)\s+$", re.I)  # the words before a place's name
# Properties that hold a place: their name or description says so.
PLACE_WORDS = frozenset(
    "location city place address state country destination origin region town where".split()
)


def _string_leaves(value) -> list[str]:
    """The strings of a returned value, keys left out: {'theaters': ['Regal', 'AMC']} ->
    ['Regal', 'AMC']."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [leaf for item in value.values() for leaf in _string_leaves(item)]
    if isinstance(value, (list, tuple)):
        return [leaf for item in value for leaf in _string_leaves(item)]
    return []


def _result_values(output: str) -> list[str]:
    """The string values a function returned, read from its JSON or Python-literal text (the SDK's
    automatic function calling sends a dict's repr), else the quoted text in it."""
    for parse in (json.loads, ast.literal_eval):
        try:
            value = parse(output)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
        if isinstance(value, (dict, list, tuple)):
            return [leaf.strip("'\"") for leaf in _string_leaves(value) if leaf.strip("'\"")]
    return _QUOTED.findall(output)


def _without_dates(text: str) -> str:
    """The text with its dates and clock times blanked: '2026-12-20' is one date, not the numbers
    2026, -12 and -20 for the integer properties."""
    return _TIME.sub(" ", _DATE.sub(" ", text))


def _named_value(name: str, text: str) -> str | None:
    found = re.search(rf"\b{re.escape(name)}\s*[:=]\s*(\"[^\"]*\"|'[^']*'|[^\s,;]+)", text, re.I)
    return found.group(1).strip("\"'").rstrip(".") if found else None


def _spans(text: str) -> list[tuple[str, int]]:
    """(name, where it starts) of each capitalised run, less a capitalised word that only starts a
    sentence ('I' is no name)."""
    names = []
    for found in _PROPER.finditer(text):
        phrase, start, before = found.group(0), found.start(), text[: found.start()].rstrip()
        if not before or before[-1] in ".!?:\n\"'":
            head, _, phrase = phrase.partition(" ")
            start += len(head) + 1
            phrase = phrase.lstrip(", ")
        after_number = re.search(r"\d\s*$", text[:start])  # '10:00 AM', '5 GB': a unit, not a name
        if phrase and phrase != "I" and not phrase.startswith("I'") and not after_number:
            names.append((phrase, start))
    return names


def proper_names(text: str) -> list[str]:
    """'Meet Bob and Alice in Paris.' -> ['Bob', 'Alice', 'Paris']"""
    return [name for name, _ in _spans(text)]


def _property_words(name: str, schema: dict) -> set[str]:
    """'rgbHex' with its description -> its content words (as the reader compares words)."""
    spaced = re.sub(r"([A-Z])", r" \1", name).replace("_", " ")
    return set(content_words(spaced)) | set(content_words(str(schema.get("description") or "")))


class _Reader:
    """What one call's arguments may take from the clause, then the rest of the turn, then the
    results; each number and each proper name goes to one property only."""

    def __init__(self, clause: str, context: str, results=()):
        self.clause, self.texts = clause, [clause, context]
        # (function name, its quoted values not yet taken) of each result in view
        self.results = [(name, _result_values(output)) for name, output in results]
        self.numbers = [n for text in self.texts for n in _NUMBER.findall(_without_dates(text))]
        # NOTE: names are found in the whole turn, then kept to the clause's: a clause cut out of a
        # sentence ("Tokyo?") must not lose its first name to the sentence-start rule.
        where = context if clause in context else clause
        offset = max(where.find(clause), 0)
        spans = [
            (n, at) for n, at in _spans(where) if offset <= at < offset + len(clause)
        ] or _spans(clause)
        self.spans = spans + [
            (n, -1) for n in proper_names(context) if n not in {s for s, _ in spans}
        ]
        self.where = where

    def listed(self) -> list[str]:
        """The clause's first name and those listed after it ('Bob, Carol and Alice'), not later
        ones."""
        shown = [(phrase, at) for phrase, at in self.spans if at >= 0]
        names = shown[:1]
        for phrase, at in shown[1:]:
            previous, start = names[-1]
            if not _LIST_JOIN.fullmatch(self.where[start + len(previous) : at]):
                break
            names.append((phrase, at))
        return [phrase for phrase, _ in names]

    def counted(self, name: str, schema: dict) -> str | None:
        """A number written next to a word of the property ('for 2 passengers', 'guests: 4' is
        _named_value's), taken from the numbers left for the others."""
        words = _property_words(name, schema)
        for text in self.texts:
            for found in _COUNTED.finditer(_without_dates(text)):
                if set(content_words(found.group(2))) & words and found.group(1) in self.numbers:
                    self.numbers.remove(found.group(1))
                    return found.group(1)
        return None

    def take(self, name: str):
        self.spans = [(n, at) for n, at in self.spans if n != name]
        return name

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

    def name_for(self, name: str, schema: dict) -> str | None:
        """The proper name a string property takes: one that fits it, else the next."""
        fitting = self.fitting_name(name, schema)
        if fitting is not None:
            return fitting
        return self.take(self.spans[0][0]) if self.spans else None

    def fitting_name(self, name: str, schema: dict) -> str | None:
        """A name next to the property's word ('the Barbie movie'), or for a place one after a
        place word."""
        words = _property_words(name, schema)
        free = {phrase for phrase, _ in self.spans}
        # the clause's names first, then those of the rest of the turn ('then get the showtimes'
        # still means the Barbie movie the first clause named)
        placed = [(phrase, at, self.where) for phrase, at in self.spans if at >= 0]
        # 'in X' is a place
        placed += [
            (phrase, at, self.texts[1])
            for phrase, at in _spans(self.texts[1])
            if phrase in free and (words & PLACE_WORDS or not _PLACE.search(self.texts[1][:at]))
        ]
        for phrase, at, text in placed:  # 'the Barbie movie', 'movie Barbie'
            before = content_words(text[max(0, at - 16) : at])[-1:]
            after = content_words(text[at + len(phrase) : at + len(phrase) + 16])[:1]
            if words & set(before + after):  # every phrase of `placed` is still free (see `free`)
                return self.take(phrase)
        if words & PLACE_WORDS:
            for phrase, at in self.spans:
                if at >= 0 and _PLACE.search(self.where[:at]):
                    return self.take(phrase)
        return None

    def string(self, name: str, schema: dict):
        words = _property_words(name, schema)
        for text in self.texts:
            if "date" in words and (dated := _DATE.search(text)):
                return dated.group(0)
            if "time" in words and (clock := _TIME.search(text)):
                return clock.group(0)
            if quoted := _QUOTED.search(text):
                return quoted.group(1)
        # NOTE: a name that fits the property beats a result, and a result of a function named like
        # the property beats the next free name ('get_showtimes(theater)' after find_theaters took
        # the city).
        found = self.fitting_name(name, schema)
        if found is None:
            found = self.result_value(words)
        if found is None:
            found = self.name_for(name, schema)
        return found if found is not None else self.clause.strip()

    def result_value(self, words: set[str]) -> str | None:
        """A quoted value of the result of a function whose name shares the property's word
        (movie <- find_movies' titles, theater <- find_theaters'); each value goes to one
        property."""
        for name, values in self.results:
            if values and words & set(content_words(name.replace("_", " "))):
                return values.pop(0)
        return None


def _typed(kind: str, raw: str | None, schema: dict, name: str, reader: _Reader):
    """A value of the schema's type from `raw` (a value shown by name) or else from the reader."""
    if schema.get("enum"):
        for text in (raw, reader.clause, *reader.texts[1:]):
            named = [
                v
                for v in schema["enum"]
                if text and re.search(rf"\b{re.escape(str(v))}\b", text, re.I)
            ]
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
        item = schema.get("items") if isinstance(schema.get("items"), dict) else {"type": "string"}
        item_kind = str(item.get("type", "string")).lower()
        if raw:
            return [_typed(item_kind, raw, item, name, reader)]
        if item_kind == "string" and not item.get("enum"):
            return [reader.take(phrase) for phrase in reader.listed()]
        if item_kind in ("integer", "number"):
            values = [float(n) for n in reader.numbers]
            reader.numbers.clear()
            return [int(v) for v in values] if item_kind == "integer" else values
        return []
    if kind == "object":
        return _fill(schema, reader)
    return raw if raw is not None else reader.string(name, schema)


def _fill(schema: dict | None, reader: _Reader) -> dict:
    properties = (schema or {}).get("properties") or {}
    required = set((schema or {}).get("required") or [])
    args = {}

    # NOTE: arrays, then places, choose first, so the next free name is what is left for the others
    # ('time' must not take 'Bob' before 'attendees' takes him, nor 'description' a city).
    def first_to_choose(name):
        prop = properties[name] if isinstance(properties[name], dict) else {}
        is_array = str(prop.get("type", "")).lower() == "array"
        return not is_array, not _property_words(name, prop) & PLACE_WORDS

    order = sorted(properties, key=first_to_choose)
    for name in order:
        prop = properties[name] if isinstance(properties[name], dict) else {}
        raw = next(
            (v for text in reader.texts if (v := _named_value(name, text)) is not None), None
        )
        kind = str(prop.get("type", "string")).lower()
        if raw is None and name not in required and kind == "string" and not prop.get("enum"):
            # an optional place or title the message does show
            raw = reader.fitting_name(name, prop)
        if raw is None and kind in ("integer", "number"):
            raw = reader.counted(name, prop)  # 'for 2 passengers': that number is this property's
        if raw is not None or name in required:
            args[name] = _typed(kind, raw, prop, name, reader)
    return {name: args[name] for name in properties if name in args}


def arguments(schema: dict | None, clause: str, context: str = "", results=()) -> dict:
    """Arguments valid against an OBJECT schema: required properties always, others when shown.
    `results`: (function name, output) of the function results in view."""
    return _fill(schema, _Reader(clause, context, results))


def argument_sets(schema: dict | None, clause: str, context: str = "", results=()) -> list[dict]:
    """One set of arguments per name the clause lists, when one string property took a name and
    no other took one ('Paris, London and Tokyo' -> three sets); else the one set."""
    first = arguments(schema, clause, context, results)
    names = _Reader(clause, context).listed()
    took = [p for p, value in first.items() if isinstance(value, str) and value in names]
    if len(names) < 2 or len(took) != 1:
        return [first]
    return [{**first, took[0]: name} for name in names]

"""A value that validates against a response schema, its values taken from the prompt where it shows
them.

Gemini's structured output always fits the schema; the glass box's does too, by rules (no language
model): the type at every level, every property (in `propertyOrdering`, else the schema's own order,
as Gemini keeps it since Nov 2025: [3P] a copy of Google's announcement "Google announces support
for JSON Schema and implicit property ordering in Gemini API", dated 2025-11-06, read 2026-12-01),
enums, `const`, unions
(`anyOf`/`oneOf`: the first branch that is not null), `$ref` into `$defs`, `allOf` merged,
`nullable` and `["string", "null"]`, `minItems`/`maxItems`, `prefixItems`, `minLength`/`maxLength`,
`minimum`/`maximum` (and the exclusive ones), and string formats (date-time, date, time, email,
uri, uuid). Where the prompt shows a value (json_prompt.py), the value comes from it:

    array    as many items as the turn asks ("List 3 ...", "a few" 3), else one per name it shows
             (two or more, for items that take names), else 3 when it names them in the plural,
             else 1; never fewer than minItems nor more than maxItems
    string   `key: value` shown; a name the turn shows, for a name-like property (name, title,
             person ...; a place-like one, city, country ..., takes the names shown after in/at/
             from/to), one name per item; the reader's answer to a question; else a label: the
             list's subject and the item's number ('Popular cookie recipe 2'), with the property's
             words for a property that is not the item's name ('Popular cookie recipe 2 description')
    enum     the member the answer or the turn names (a member spelled like "a" or "the" counts
             only when shown by name), else the first
    number   `key: value`, else a number just before the property's word ("5 stars"), else the next
             number of the turn no count or property took ("John Smith is 42" -> age 42), else the
             default, the middle of minimum and maximum, or the nearest bound to 0; always in range
    boolean  `key: true/false` (yes/no), else false
    nullable null when the prompt shows nothing for it (no invented zip code), as above otherwise

    >>> from harness.engine.compat.json_prompt import Prompt
    >>> fill({"type": "ARRAY", "items": {"type": "OBJECT", "properties": {"recipe_name": {"type": "STRING"}}}},
    ...      Prompt("List 2 popular cookie recipes."))
    [{'recipe_name': 'Popular cookie recipe 1'}, {'recipe_name': 'Popular cookie recipe 2'}]
"""

import re

from harness.engine.compat.json_prompt import MAX_ITEMS, SOME, Prompt, singular, stems

# Properties that hold a name: a proper name the turn shows fits them, one per item.
NAME_WORDS = frozenset(
    "name title label called person people who city country place location town brand "
    "author artist company team player character destination capital guest attendee member "
    "participant friend student customer employee speaker user".split()
)
# the item's own name: its label, bare
IDENTITY_WORDS = frozenset("name title label called".split())
# Name-like properties that hold a place: they take the names shown after in/at/from/to, the others
# the rest.
PLACE_WORDS = frozenset(
    "city country place location town destination capital address region state".split()
)
FORMAT_WORDS = frozenset(
    "json schema return returns list array object string type format enum".split()
)
# Enum members spelled like these words are taken only when shown by name ("grade: a").
_FUNCTION_WORDS = frozenset("a an the i of to in on or and it is at by as be".split())
_NEGATIVE = re.compile(r"^(false|no|off|n|0)$", re.I)
# A schema may ask for more than any answer holds (minItems: 10**9, nested): the answer stops
# growing after about this many characters, as a real one stops at the output cap (that of the
# current models, harness/models.py; maxOutputTokens then cuts it where the request says).
MAX_SIZE = 250_000


def _resolve(schema, root: dict) -> dict:
    """`schema` with `$ref` followed into the root document, `allOf` merged; {} when not a
    schema."""
    seen = 0
    while isinstance(schema, dict) and str(schema.get("$ref", "")).startswith("#/") and seen < 32:
        target = root
        for key in schema["$ref"][2:].split("/"):
            target = target.get(key, {}) if isinstance(target, dict) else {}
        schema, seen = {**{k: v for k, v in schema.items() if k != "$ref"}, **target}, seen + 1
    if not isinstance(schema, dict):
        return {}
    if isinstance(schema.get("allOf"), list):  # pydantic wraps a described $ref in allOf
        merged = {k: v for k, v in schema.items() if k != "allOf"}
        for part in schema["allOf"]:
            part = _resolve(part, root)
            merged["properties"] = {**merged.get("properties", {}), **part.get("properties", {})}
            merged = {**part, **merged}
        schema = {k: v for k, v in merged.items() if v != {} or k != "properties"}
    return schema


def kind_of(schema: dict) -> str:
    """The schema's type, lowercase, its non-null one when it lists several; inferred when
    absent."""
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if str(k).lower() != "null"), "null")
    if kind is None:
        kind = (
            "object"
            if "properties" in schema
            else "array"
            if "items" in schema or "prefixItems" in schema
            else "string"
        )
    return str(kind).lower()


def _spaced(key: str) -> str:
    """'recipeName' and 'recipe_name' -> 'recipe name'."""
    return re.sub(r"([a-z])([A-Z])", r"\1 \2", key).replace("_", " ").replace("-", " ")


def words_of(key: str, schema: dict, described: bool = True) -> set[str]:
    """The words a property goes by: its name (snake or camel case), its title, its description
    (left out where they would say too much: an Ingredient "in a recipe" is no list of recipes)."""
    description = str(schema.get("description") or "").split()[:6] if described else []
    return stems(_spaced(key).split() + str(schema.get("title") or "").split() + description)


def _described(label: str, key: str) -> str:
    """'Cookie recipe 2' with the last words of `key` it lacks: 'Cookie recipe 2 description'."""
    extra = [
        word for word in _spaced(key).lower().split()[-2:] if word not in label.lower().split()
    ]
    return _label(label, *extra)


def _label(*words: str) -> str:
    text = " ".join(w for w in words if w).strip()
    return text[:1].upper() + text[1:]


def _schema_words(schema, found: set, depth: int = 0) -> set[str]:
    """The titles and property names of a schema and the schemas in it, lowercase."""
    if depth > 32:
        return found
    if isinstance(schema, dict):
        properties = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
        found |= {str(schema.get("title", "")).lower()} | {str(name).lower() for name in properties}
    for child in (
        schema.values() if isinstance(schema, dict) else schema if isinstance(schema, list) else []
    ):
        _schema_words(child, found, depth + 1)
    return found


class _Filler:
    def __init__(self, prompt: Prompt, root: dict):
        self.prompt, self.root = prompt, root
        # Each shown name goes to one value; the words of the request's format ("this JSON schema",
        # "Return: list[Recipe]") are not names.
        unnamed = _schema_words(root, set(FORMAT_WORDS))
        prompt.names = [
            (name, place)
            for name, place in dict.fromkeys(prompt.names)
            if name.lower() not in unnamed
        ]
        self.left = MAX_SIZE  # characters the answer may still grow by

    def value(self, schema, key: str = "", label: str = "", depth: int = 0, item: bool = False):
        """A value of `schema` for property `key`; `label` names the list item it belongs to (or is,
        when `item`)."""
        schema = _resolve(schema, self.root)
        self.left -= 1
        if "const" in schema:
            return schema["const"]
        optional = bool(schema.get("nullable")) or (
            isinstance(schema.get("type"), list)
            and "null" in [str(t).lower() for t in schema["type"]]
        )
        for union in ("anyOf", "oneOf", "any_of"):
            branches = [_resolve(b, self.root) for b in schema.get(union) or []]
            if branches:
                chosen = next((b for b in branches if kind_of(b) != "null"), branches[0])
                rest = {k: v for k, v in schema.items() if k not in ("anyOf", "oneOf", "any_of")}
                if any(kind_of(b) == "null" for b in branches):
                    rest["nullable"] = True
                return self.value({**rest, **chosen}, key, label, depth, item)
        kind = kind_of(schema)
        if kind == "object" and depth <= 12:
            return self.object(schema, label, depth)
        if kind == "array" and depth <= 12:
            return self.array(schema, key, label, depth)
        if depth > 12 and kind in ("object", "array"):  # a recursive schema: stop where it lets us
            return None if optional else [] if kind == "array" else {}
        if (
            not {"type", "enum", "format", "properties", "items"} & set(schema)
            and self.prompt.numbers
            and key
            and not words_of(key, schema) & NAME_WORDS
        ):  # a key named with no type: a number fits
            number = self.number(schema, key, False)[0]
            return int(number) if number.is_integer() else number
        value, shown = self.scalar(kind, schema, key, label, item)
        # a nullable the prompt says nothing of: null
        return None if optional and not shown else value

    def scalar(self, kind: str, schema: dict, key: str, label: str, item: bool = False) -> tuple:
        """(the value, whether the prompt showed it)."""
        if schema.get("enum"):
            return self.member(schema["enum"], key)
        if kind == "null":
            return None, True
        if kind in ("integer", "number"):
            return self.number(schema, key, kind == "integer")
        if kind == "boolean":
            shown = self.prompt.shown(key) if key else None
            return shown is not None and not _NEGATIVE.match(shown), shown is not None
        return self.string(schema, key, label, item)

    def object(self, schema: dict, label: str, depth: int) -> dict:
        properties = schema.get("properties") or {}
        order = [name for name in schema.get("propertyOrdering") or [] if name in properties]
        order += [name for name in properties if name not in order]
        return {name: self.value(properties[name], name, label, depth + 1) for name in order}

    def array(self, schema: dict, key: str, label: str, depth: int) -> list:
        items, prefix = schema.get("items"), schema.get("prefixItems") or []
        item_schema = _resolve(items if isinstance(items, dict) else {}, self.root)
        words = (
            words_of(key, schema, False)
            | words_of("", item_schema, False)
            | self.item_words(item_schema)
        )
        count = self.prompt.count(words, top=depth == 0)
        if count is None:
            count = self.listed_count(key, item_schema) or (
                SOME if self.prompt.plural(words) else 1
            )
        count = max(int(schema.get("minItems") or 0), len(prefix) if items is False else 0, count)
        if schema.get("maxItems") is not None:
            count = min(count, int(schema["maxItems"]))
        if items is False:
            count = min(count, len(prefix))
        # NOTE: the SDK titles the wrapper it makes for list[...] "Placeholder" (google-genai
        # _transformers)
        title = (
            str(item_schema.get("title") or "") if item_schema.get("title") != "Placeholder" else ""
        )
        subject = (
            self.prompt.subject(words, top=depth == 0)
            or singular(_spaced(key))
            or _spaced(title).lower()
            or "item"
        )
        out = []
        for i in range(count):
            if self.left <= 0:
                break
            item_label = _label(subject, str(i + 1))
            out.append(
                self.value(
                    prefix[i] if i < len(prefix) else item_schema,
                    key if i >= len(prefix) else "",
                    item_label,
                    depth + 1,
                    item=True,
                )
            )
        return out

    def item_words(self, item: dict) -> set[str]:
        """An object item's property words (so 'recipe_name' says the list is of recipes)."""
        words = set()
        for name, prop in (item.get("properties") or {}).items():
            words |= words_of(name, {}) - NAME_WORDS
        return words

    def listed_count(self, key: str, item: dict) -> int | None:
        """One item per name the turn shows (two or more), when the items take names; else None."""
        if kind_of(item) == "string" and not item.get("enum"):
            takes_names = not key or bool(words_of(key, {}) & NAME_WORDS)
        else:
            takes_names = any(
                words_of(name, prop if isinstance(prop, dict) else {}) & NAME_WORDS
                for name, prop in (item.get("properties") or {}).items()
            )
        fitting = [name for name in self.prompt.names if name[1] == self.wants_place(key, item)]
        return min(len(fitting), MAX_ITEMS) if takes_names and len(fitting) > 1 else None

    def wants_place(self, key: str, item: dict) -> bool:
        """Whether a list's names are places: its key says so, or its items' first name-like
        property."""
        if words_of(key, {}) & PLACE_WORDS:
            return True
        for name, prop in (item.get("properties") or {}).items():
            words = words_of(name, prop if isinstance(prop, dict) else {})
            if words & NAME_WORDS:
                return bool(words & PLACE_WORDS)
        return False

    def member(self, members: list, key: str):
        shown = self.prompt.shown(key) if key else None
        for text in ([shown] if shown else []) + self.prompt.texts():
            for member in members:
                spelled = str(member)
                if spelled.lower() in _FUNCTION_WORDS and text is not shown:
                    continue
                if text and re.search(rf"(?<!\w){re.escape(spelled)}(?!\w)", text, re.I):
                    return member, True
        return members[0], False

    def number(self, schema: dict, key: str, integer: bool):
        shown = self.prompt.shown(key) if key else None
        found = re.search(r"-?\d+(?:\.\d+)?", shown or "")
        value = (
            float(found.group(0))
            if found
            else self.prompt.number_near(words_of(key, schema))
            if key
            else None
        )
        if value is not None:
            self.prompt.use_number(value)
        else:
            value = self.prompt.next_number()
        shown = value is not None
        low, high = schema.get("minimum"), schema.get("maximum")
        low_open, high_open = schema.get("exclusiveMinimum"), schema.get("exclusiveMaximum")
        step = 1 if integer else 0.5
        if isinstance(low_open, (int, float)) and not isinstance(low_open, bool):
            low = max(low, low_open + step) if low is not None else low_open + step
        if isinstance(high_open, (int, float)) and not isinstance(high_open, bool):
            high = min(high, high_open - step) if high is not None else high_open - step
        if value is None:
            default = schema.get("default")
            value = (
                float(default)
                if isinstance(default, (int, float)) and not isinstance(default, bool)
                else (
                    (low + high) / 2
                    if low is not None and high is not None
                    else max(low, 0)
                    if low is not None
                    else min(high, 0)
                    if high is not None
                    else 0
                )
            )
        if low is not None:
            value = max(value, low)
        if high is not None:
            value = min(value, high)
        if integer:
            rounded = int(value)
            if low is not None and rounded < low:
                rounded += 1
            return rounded, shown
        return float(value), shown

    def string(self, schema: dict, key: str, label: str, item: bool = False) -> tuple[str, bool]:
        text, shown = self.pick_string(schema, key, label, item)
        longest, shortest = (
            schema.get("maxLength"),
            min(int(schema.get("minLength") or 0), max(self.left, 0)),
        )
        if len(text) < shortest:
            text = (
                (text + " " + "." * shortest)[: max(shortest, len(text))]
                if text
                else "." * shortest
            )
        text = text[: int(longest)] if longest is not None else text
        self.left -= len(text)
        return text, shown

    def pick_string(self, schema: dict, key: str, label: str, item: bool) -> tuple[str, bool]:
        """(the string, whether the prompt showed it: by name, a name, a date, the answer)."""
        shown = self.prompt.shown(key) if key else None
        if shown is not None:
            return shown, True
        formatted = self.prompt.formatted(str(schema.get("format") or "").lower(), key)
        if formatted is not None:
            return formatted
        words = words_of(key, schema)  # an item's key is its list's: a list of names takes names
        if words & NAME_WORDS or item and not key:
            name = self.prompt.take_name(bool(words & PLACE_WORDS))
            if name is not None:
                return name, True
        bare = item or bool(words & IDENTITY_WORDS)  # the item's own name is its label alone
        if label:
            return _described(label, "" if bare else key), False
        if self.prompt.reply():
            return self.prompt.reply(), True
        subject = self.prompt.subject(set(), top=True)
        return (
            _described(subject, "" if bare else key) if subject else self.prompt.text.strip()
        ), False


def enum_of(schema: dict) -> list | None:
    """The members of an enum schema, its `$ref` followed ({"$ref": "#/$defs/Mood"} -> its enum)."""
    return _resolve(schema, schema).get("enum") or None


def fill(schema: dict, prompt: Prompt, root: dict | None = None):
    """A value of `schema` (either dialect) filled from `prompt` (see the module docstring)."""
    return _Filler(prompt, root or schema).value(schema)

"""What a JSON-mode request shows that a schema's values can take: counts, subjects, names, numbers.

The glass box fills a response schema by rules that read the latest user turn (json_fill.py); this
module is the reading half. It finds

    counts      "List 3 popular cookie recipes" -> 3 of "popular cookie recipe"; "about 10", "a few"
                (3), "a couple of" (2), "a dozen" (12); whether a list's things are named in the
                plural with no count ("their main ingredients": SOME, the glass box's own few)
    names       the proper names the turn shows, in order ('Alice, Bob and Carol' -> three names),
                each marked a place when it follows in/at/from/to ('in Paris')
    numbers     a number next to a word ("5 stars" for a `stars` property), a `key: value` pair, and
                the numbers no count or property took, in order ("John is 42" -> age 42)
    the answer  the reader's reply to a question, without its wrapper (the quoted sentences)
    formats     a date (YYYY-MM-DD) or clock time it shows, for date-time, date and time strings

    >>> shown = Prompt("List 3 popular cookie recipes.")
    >>> shown.count({"recipe"}), shown.subject({"recipe"})
    (3, 'popular cookie recipe')
    >>> [name for name, _ in Prompt("Which of Alice, Bob and Carol play chess?").names]
    ['Alice', 'Bob', 'Carol']
"""

import hashlib
import re
import uuid

from harness.engine.reader import STOP_WORDS, content_words

SOME = 3  # a plural asked with no count: how many items the glass box gives (its own choice)
MAX_ITEMS = 50  # "List 10000 ..." still gets a bounded answer
_NUMBER_WORDS = {
    word: n
    for n, word in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen"
        " fifteen sixteen seventeen eighteen nineteen twenty".split()
    )
}
_VAGUE = {
    "few": SOME,
    "several": SOME,
    "some": SOME,
    "various": SOME,
    "many": SOME,
    "couple": 2,
    "pair": 2,
    "dozen": 12,
}
_QUANTITIES = "|".join([*_NUMBER_WORDS, *_VAGUE])
_COUNT = re.compile(
    r"\b(?:about|around|roughly|approximately|up to|at least|exactly|top)?\s*"
    rf"(\d+|{_QUANTITIES})(?:\s+of)?\s+((?:[A-Za-z][\w'-]*\s*){{1,6}})",
    re.I,
)
# Words that end a list's subject: "cookie recipes along with ...", "recipes, grade them".
_PHRASE_ENDS = frozenset(
    """along with and or that which who whose for from in on of using as to by based
    including each per where while than like about into under over plus but so then their its""".split()
)
_LIST_VERBS = frozenset(
    "list name give generate suggest write create provide extract find show return "
    "recommend make produce enumerate pick choose".split()
)
_ANSWER_QUOTE = re.compile(r'"([^"]+)"')
# A number standing alone: not part of a date, a clock time, '8 am', '20%', a word or a version.
_FREE_NUMBER = re.compile(r"(?<![\w.:/-])-?\d+(?:\.\d+)?(?![\w:/-]|\.\d|\s*(?:[ap]\.?m\b|%))", re.I)
_FIXED_DATE = (  # a format value the prompt does not show: fixed, so answers are repeatable
    "2026-01-01"
)
_FORMATS = {
    "date-time": f"{_FIXED_DATE}T00:00:00Z",
    "date": _FIXED_DATE,
    "time": "00:00:00",
    "email": "someone@example.com",
    "uri": "https://example.com/",
    "url": "https://example.com/",
    "hostname": "example.com",
    "ipv4": "192.0.2.1",
    "ipv6": "2001:db8::1",
}
_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
_TIME = re.compile(r"\b([01]?\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?\b(?:\s*([AaPp])\.?[Mm]\b)?")
_CAPITALISED = re.compile(r"[A-Z][\w'-]*(?:[ \t]+[A-Z][\w'-]*)*")
# After a sentence's first word, words that make it a name: "Bob is 52", "Ana lives in Oslo".
_SUBJECT_OF = (
    r"\s+(?:is|was|has|had|lives|lived|works|worked|said|says|and|likes|loves|wants|went)\b|'s\b"
)
_PLACE_BEFORE = re.compile(r"\b(?:in|at|near|from|to|of|visit|visited|visiting)\s*$", re.I)


def names_in(text: str) -> list[tuple[str, bool]]:
    """(name, whether it names a place) of each capitalised run of `text`, less the word that only
    starts a sentence and "I". After a colon a name is a name; after in/at/from/to... a place.

    >>> names_in("List the guests. Meet Ana Lopez and Bob in Paris. Carl is late. What is it?")
    [('Ana Lopez', False), ('Bob', False), ('Paris', True), ('Carl', False)]
    """
    names = []
    for found in _CAPITALISED.finditer(text):
        # NOTE: only the few characters before a name are read: a slice of the whole text per name
        # made a prompt of 20,000 capitals take a minute
        window = text[max(0, found.start() - 40) : found.start()]
        phrase, before = found.group(0), window.rstrip(" \t\"'(")
        if not before and found.start() > 40:
            before = "x"  # 40 blanks or quotes before it: mid-text, not a sentence start
        head, _, rest = phrase.partition(" ")
        subject = (
            re.match(_SUBJECT_OF, text[found.end() :])
            and head.lower() not in STOP_WORDS
            and len(head) > 2
        )
        if (not before or before[-1] in ".!?\n") and not (subject and not rest):
            # a capital that only starts the sentence, unless it does something
            phrase = rest.strip()
        if phrase and phrase != "I" and not phrase.startswith("I'"):
            names.append((phrase, bool(_PLACE_BEFORE.search(window))))
    return names


_IRREGULAR = {
    "people": "person",
    "children": "child",
    "men": "man",
    "women": "woman",
    "data": "data",
}


def singular(word: str) -> str:
    """'recipes' -> 'recipe', 'berries' -> 'berry', 'dishes' -> 'dish', 'glass' unchanged."""
    lower = word.lower()
    if lower in _IRREGULAR:
        return _IRREGULAR[lower] if word.islower() else _IRREGULAR[lower].capitalize()
    if lower.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if lower.endswith(("ches", "shes", "sses", "xes")):
        return word[:-2]
    if lower.endswith("s") and not lower.endswith(("ss", "us", "is")) and len(word) > 3:
        return word[:-1]
    return word


def stems(words) -> set[str]:
    """The words as the reader compares them (content words, a plural 's' dropped), plus
    singulars."""
    out = set()
    for word in words:
        out |= set(content_words(word.replace("_", " "))) | {singular(word.lower())}
    return out


def _subject_words(phrase: str) -> list[str]:
    words = []
    for word in phrase.split():
        bare = word.strip(",.;:!?()\"'")
        if not bare or bare.lower() in _PHRASE_ENDS or not bare[0].isalpha():
            break
        words.append(bare)
        if bare != word:  # punctuation ends the phrase
            break
    return words[:4]


class Prompt:
    """The latest user turn (`text`), the rest of the window (`context`) and the reader's
    `answer`."""

    def __init__(self, text: str, context: str = "", answer: str = ""):
        self.text, self.context = text, context
        self.answer = answer
        self.names = names_in(text)
        # (count, subject words, whether a list verb comes just before) of each counted phrase
        self.counted = []
        for found in _COUNT.finditer(text):
            raw, words = found.group(1).lower(), _subject_words(found.group(2))
            if not words or words[0].lower() in ("am", "pm", "percent", "%"):
                continue  # '8 am' is a time, not a count
            number = int(raw) if raw.isdigit() else _NUMBER_WORDS.get(raw, _VAGUE.get(raw))
            before = content_words(text[max(0, found.start() - 24) : found.start()]) or [""]
            self.counted.append(
                (min(number, MAX_ITEMS), words, before[-1] in _LIST_VERBS, raw.isdigit())
            )
        # the numbers no list's count or property took, in order: a number property with nothing
        # else shown takes the next (a list's count is taken when its list is filled, before its
        # items)
        self.numbers = [float(n.group(0)) for n in _FREE_NUMBER.finditer(text)]

    def _phrase_for(self, words: set[str], top: bool):
        """The counted phrase whose words share one with `words`; for the top-level list, else the
        first after a list verb, else the first with a plural."""
        for counted in self.counted:
            if stems(counted[1]) & words:
                return counted
        if not top:
            return None
        for counted in self.counted:
            if counted[2]:
                return counted
        return next((c for c in self.counted if c[1][-1].lower().endswith("s")), None)

    def count(self, words: set[str], top: bool = False) -> int | None:
        """How many items a list of `words` is asked with ("3 recipes", "a few recipes"), or
        None."""
        found = self._phrase_for(words, top)
        if found and found[3]:
            self.use_number(float(found[0]))
        return found[0] if found else None

    def plural(self, words: set[str]) -> bool:
        """Whether the turn names the list's things in the plural ("their main ingredients")."""
        return bool(
            words
            & {singular(w) for w in re.findall(r"\b[a-z]\w*s\b|\bpeople\b", self.text.lower())}
        )

    def subject(self, words: set[str], top: bool = False) -> str | None:
        """The thing a counted list is of, singular: 'popular cookie recipe'."""
        found = self._phrase_for(words, top)
        if not found:
            return None
        *head, last = found[1]
        return " ".join(head + [singular(last)])

    def shown(self, key: str) -> str | None:
        """The value the turn gives by name: `key: value` or `key = value` ('quoted' or one
        word)."""
        for name in dict.fromkeys((key, key.replace("_", " "))):
            found = re.search(
                rf"\b{re.escape(name)}\s*[:=]\s*(\"[^\"]*\"|'[^']*'|[^\s,;]+)", self.text, re.I
            )
            if found:
                return found.group(1).strip("\"'").rstrip(".")
        return None

    def take_name(self, place: bool) -> str | None:
        """The next shown name of the kind asked (a place or not); each name goes to one value."""
        for i, (name, is_place) in enumerate(self.names):
            if is_place == place:
                del self.names[i]
                return name
        return None

    def use_number(self, value: float) -> None:
        """`value` went to a property: no other property takes it as the next free number."""
        if value in self.numbers:
            self.numbers.remove(value)

    def next_number(self) -> float | None:
        return self.numbers.pop(0) if self.numbers else None

    def number_near(self, words: set[str]) -> float | None:
        """A number just before a word of `words` ('5 stars', '250 g of flour' does not count)."""
        for found in re.finditer(r"(-?\d+(?:\.\d+)?)\s+([A-Za-z][\w-]*)", self.text):
            if stems([found.group(2)]) & words:
                return float(found.group(1))
        return None

    def reply(self) -> str:
        """The answer's quoted sentences joined ('From what I can see: "A." "B."' -> 'A. B.'), or
        the answer itself when it quotes nothing."""
        quotes = _ANSWER_QUOTE.findall(self.answer)
        return " ".join(quotes) if quotes else self.answer

    def formatted(self, form: str, key: str) -> tuple[str, bool] | None:
        """(a value of a string format, whether the turn showed it): a date or clock time the turn
        shows, else a fixed valid one; None for a format with no special value."""
        day, clock = _DATE.search(self.text), _TIME.search(self.text)
        if form in ("date-time", "date"):
            date = day.group(0) if day else _FIXED_DATE
            return (
                (date, bool(day))
                if form == "date"
                else (f"{date}T{self.clock()}Z", bool(day or clock))
            )
        if form == "time":
            return self.clock(), bool(clock)
        if form == "uuid":  # the same prompt and key give the same id
            digest = hashlib.sha256((self.text + key).encode()).digest()[:16]
            return str(uuid.UUID(bytes=digest)), False
        return (_FORMATS[form], False) if form in _FORMATS else None

    def clock(self) -> str:
        """The first clock time the turn shows, as HH:MM:SS: '7:05 pm' -> '19:05:00'."""
        shown = _TIME.search(self.text)
        if not shown:
            return _FORMATS["time"]
        hours, minutes, seconds, half = shown.groups()
        hours = int(hours) % 12 + (12 if half in ("p", "P") else 0) if half else int(hours)
        return f"{hours:02d}:{minutes}:{seconds or '00'}"

    def texts(self) -> list[str]:
        """Where a named value is looked for, nearest first: the answer, the turn, the rest."""
        return [self.answer, self.text, self.context]


# A schema spelled out in the prompt in Python, as the Gemini cookbook's JSON mode quickstart asks
# for one without a response schema:  Recipe = {'recipe_name': str}   Return: list[Recipe]
_DEFINITION = re.compile(r"\b([A-Z]\w*)\s*=\s*\{([^{}]*)\}")
_FIELD = re.compile(r"""["']?(\w+)["']?\s*:\s*([\w\[\], ]+?)\s*(?:,|$)""")
_RETURN = re.compile(r"\bReturn(?:s)?\s*:\s*([\w\[\]]+)", re.I)
_PYTHON_TYPES = {"str": "string", "int": "integer", "float": "number", "bool": "boolean"}
# Or in words: "a JSON object with the keys name, city and 'zip code'" (no type is said: each any
# type).
_KEY = r"""(?:"[^"]+"|'[^']+'|`[^`]+`|[A-Za-z_]\w*)"""
_KEYS_NAMED = re.compile(
    rf"\b(?:keys?|fields?|properties)\s*(?:called|named)?\s*:?\s+"
    rf"({_KEY}(?:\s*(?:,|\band\b|,\s*and\b)\s*{_KEY})*)"
)


def _python_type(spelled: str, definitions: dict, depth: int = 0) -> dict:
    spelled = spelled.strip()
    inner = re.fullmatch(r"(?:list|List)\[(.+)\]", spelled)
    if inner and depth < 8:
        return {"type": "array", "items": _python_type(inner.group(1), definitions, depth + 1)}
    if spelled in definitions and depth < 8:
        return {
            "type": "object",
            "title": spelled,
            "properties": {
                name: _python_type(kind, definitions, depth + 1)
                for name, kind in definitions[spelled]
            },
        }
    return {"type": _PYTHON_TYPES.get(spelled, "string")}


def described_schema(text: str) -> dict | None:
    """The JSON Schema a prompt spells out (`Name = {'key': type}` and `Return: list[Name]`, or the
    keys it names), or None.

    >>> described_schema("Recipe = {'recipe_name': str}\\nReturn: list[Recipe]")
    {'type': 'array', 'items': {'type': 'object', 'title': 'Recipe', 'properties': {'recipe_name': {'type': 'string'}}}}
    >>> described_schema("Answer in JSON with the keys name and 'home city'.")["properties"]
    {'name': {}, 'home city': {}}
    """
    definitions = {name: _FIELD.findall(body) for name, body in _DEFINITION.findall(text)}
    returned = _RETURN.search(text)
    if returned:
        return _python_type(returned.group(1), definitions)
    if definitions:
        return _python_type(next(iter(definitions)), definitions)
    named = _KEYS_NAMED.search(text)
    if named:
        keys = [key.strip("\"'`") for key in re.findall(_KEY, named.group(1)) if key != "and"]
        return {
            "type": "object",
            "properties": {key: {} for key in keys},
        }  # any type: a name, a number, a text
    return None

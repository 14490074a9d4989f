"""Which declared functions the latest user turn asks for: function calling by rules, not a model.

The request is cut into clauses (at "and", "then", "also", ";", sentence and line ends; not at an
"and" between two names, as in "Bob and Alice"). Each clause is scored against every declared
function by the words they share, a word of the function's name counting most:

    a word of the name (get_weather -> get, weather)   3
    a word of the description, or a value of an enum   1
    the name itself, verbatim                         10

A word shared whole counts twice what a shared stem counts ('show' only starts 'showtimes'). A
function needs one of these in common; its parameters' names (2 a word) only break a tie between
functions the clause selects equally (their descriptions do not: "Whether the music is energetic"
must not make a party pick the music over the disco ball). Each clause calls its best-scoring
functions (several on a tie: parallel calls); a clause that selects none but shows a new value ("...
and in London?") repeats the function of the clause before it, and one that selects the same again
with no value of its own ("First, find the movie titles.") restates it: no second call. A request's
words also stand for the few related words of `RELATED` (a party wants music, a disco ball and
lights; "each" and "times" want a product), a glass-box lexicon kept small on purpose.

    >>> weather = {"name": "get_weather", "description": "Gets the weather for a city."}
    >>> [d["name"] for d, clause in plan("What's the weather in Paris and in London?", [weather])]
    ['get_weather', 'get_weather']
    >>> plan("Tell me a joke.", [weather])
    []

Words are compared as the reader compares them (harness.engine.reader: stop words dropped, a
plural 's' dropped, a stem of 4+ letters matching a longer word).
"""

import re

from harness.engine.compat.call_arguments import proper_names
from harness.engine.reader import content_words

SCORE_VERBATIM, SCORE_NAME, SCORE_PARAMETER, SCORE_DESCRIPTION = 10, 3, 2, 1
WHOLE, STEM = 2, 1  # a word shared whole, or only by a stem of 4+ letters
MIN_STEM = 4  # as the reader: 'light' matches 'lights' and 'lighting'
# Words of function names and descriptions that say how, not what: they select nothing.
GENERIC = frozenset(
    """get set find fetch retrieve return returns make run call function tool use specified
    parameter parameters matching based current currently value values string number true false""".split()
)
# A small lexicon of what a request implies (glass-box knowledge, 2026-12-01): each word of a
# request also stands for these. Kept to everyday requests a cookbook or a lesson makes.
RELATED = {
    "party": ("music", "disco", "light", "dance"),
    "dark": ("light", "lamp", "enable"),
    "bright": ("light",),
    "weather": ("forecast", "temperature"),
    "umbrella": ("weather", "rain", "forecast"),
    "rain": ("weather", "forecast"),
    "song": ("music",),
    "tune": ("music",),
    "cold": ("temperature", "heat", "thermostat"),
    "freezing": ("temperature", "heat", "thermostat"),
    "hot": ("temperature", "thermostat", "cool"),
    "travel": ("destination", "trip"),
    "visit": ("destination", "trip"),
    "fly": ("flight", "destination"),
    "each": ("multiply", "product"),
    "times": ("multiply", "product"),
    "plus": ("add", "sum"),
    "sum": ("add",),
    "minus": ("subtract", "difference"),
    "divided": ("divide",),
    "split": ("divide",),
}
_CLAUSE_END = re.compile(r"(\s+(?:and then|and|then|also)\s+|[;\n]+|(?<=[.!?])\s+)", re.I)
_ENDS_WITH_NAME, _STARTS_WITH_NAME = re.compile(r"[A-Z][\w'-]*,?$"), re.compile(r"^[A-Z]")
_NAME_PART = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")


def clauses(text: str) -> list[str]:
    """'Find the weather in Paris and then in London.' -> ['Find the weather in Paris', 'in
    London.']; 'Meet Bob and Alice.' stays one clause (an "and" between two names joins them)."""
    pieces = _CLAUSE_END.split(text)
    merged = [pieces[0]]
    for separator, piece in zip(pieces[1::2], pieces[2::2]):
        joins_names = (
            separator.strip().lower() == "and"
            and _ENDS_WITH_NAME.search(merged[-1].rstrip())
            and _STARTS_WITH_NAME.match(piece)
        )
        if joins_names:
            merged[-1] += separator + piece
        else:
            merged.append(piece)
    return [part.strip() for part in merged if part and part.strip()]


def _words(text: str) -> set[str]:
    return {word for word in content_words(text) if word not in GENERIC}


def _name_words(name: str) -> set[str]:
    """'get_weather' -> {'weather'}; 'setLightColor' -> {'light', 'color'}."""
    return _words(" ".join(_NAME_PART.findall(name)))


def _same(a: str, b: str) -> bool:
    short, long = sorted((a, b), key=len)
    return short == long or (len(short) >= MIN_STEM and long.startswith(short))


def _shared(wanted: set[str], words: set[str]) -> int:
    """WHOLE for each word also in `wanted`, STEM for one that only shares a stem with a word of
    it."""
    return sum(
        WHOLE if word in wanted else STEM for word in words if any(_same(word, w) for w in wanted)
    )


def request_words(text: str) -> set[str]:
    """The clause's content words and the words they imply (RELATED). NOTE: RELATED is looked up on
    every word, stop words too: "each" says nothing to the reader but asks for a product here."""
    every = set(re.findall(r"[a-z]+", text.lower()))
    return _words(text) | {related for word in every for related in RELATED.get(word, ())}


def _enum_words(properties: dict) -> set[str]:
    return {
        word
        for prop in properties.values()
        if isinstance(prop, dict)
        for value in prop.get("enum") or []
        for word in _words(str(value))
    }


def score(clause: str, declaration: dict, schema: dict | None) -> tuple[int, int]:
    """How strongly `clause` asks for the declared function, and the tie-break of its parameters'
    words; (0, 0): not at all."""
    name = declaration.get("name", "")
    wanted = request_words(clause)
    properties = (schema or {}).get("properties") or {}
    properties = properties if isinstance(properties, dict) else {}
    named = _shared(wanted, _name_words(name)) * SCORE_NAME
    described = _shared(
        wanted, _words(declaration.get("description") or "") | _enum_words(properties)
    )
    verbatim = SCORE_VERBATIM * WHOLE if re.search(rf"\b{re.escape(name)}\b", clause) else 0
    if not (named or described or verbatim):
        return 0, 0
    parameters = sum(SCORE_PARAMETER * _shared(wanted, _name_words(p)) for p in properties)
    return named + described * SCORE_DESCRIPTION + verbatim, parameters


def _shows_value(clause: str) -> bool:
    """Whether the clause holds a value an argument could take: a name, a number, quoted text."""
    return bool(proper_names(clause) or re.search(r"\d|[\"'`]\w", clause))


def plan(
    text: str, declarations: list[dict], schema_of=lambda d: d.get("parameters")
) -> list[tuple[dict, str]]:
    """(declaration, clause) for each call the request asks for, in the order it asks."""
    calls, previous = [], []
    for clause in clauses(text):
        scored = [(score(clause, d, schema_of(d)), i) for i, d in enumerate(declarations)]
        best = max((points for points, _ in scored), default=(0, 0))
        chosen = [declarations[i] for points, i in scored if best[0] and points == best]
        # "... and in London": the same call, new values
        if not chosen and previous and _words(clause):
            chosen = previous
        # "First, find the movie titles.": said again
        elif chosen == previous and not _shows_value(clause):
            continue
        calls += [(declaration, clause) for declaration in chosen]
        previous = chosen or previous
    return calls

"""Which declared functions the latest user turn asks for: function calling by rules, not a model.

The request is cut into clauses (at "and", "then", "also", ";", sentence and line ends). Each
clause is scored against every declared function by the words they share, a word of the function's
name counting most:

    a word of the name (get_weather -> get, weather)   3
    a parameter's name                                 2
    a word of the description or a parameter's one     1
    the name itself, verbatim                         10

A function needs a word of its name or description in common (a parameter's name alone does not
select it). Each clause calls its best-scoring functions (several on a tie: parallel calls); a
clause that selects none but shows a new value ("... and in London?") repeats the function of the
clause before it. A request's words also stand for the few related words of `RELATED` (a party
wants music, a disco ball and lights), a glass-box lexicon kept small on purpose.

    >>> weather = {"name": "get_weather", "description": "Gets the weather for a city."}
    >>> [d["name"] for d, clause in plan("What's the weather in Paris and in London?", [weather])]
    ['get_weather', 'get_weather']
    >>> plan("Tell me a joke.", [weather])
    []

Words are compared as the reader compares them (harness.engine.reader: stop words dropped, a
plural 's' dropped, a stem of 4+ letters matching a longer word).
"""
import re

from harness.engine.reader import content_words

SCORE_VERBATIM, SCORE_NAME, SCORE_PARAMETER, SCORE_DESCRIPTION = 10, 3, 2, 1
MIN_STEM = 4  # as the reader: 'light' matches 'lights' and 'lighting'
# Words of function names and descriptions that say how, not what: they select nothing.
GENERIC = frozenset("""get set find fetch retrieve return returns make run call function tool use specified
    parameter parameters matching based current currently value values string number true false""".split())
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
    "hot": ("temperature", "thermostat"),
}
_CLAUSE_END = re.compile(r"\s+(?:and|then|also|and then)\s+|[;\n]+|(?<=[.!?])\s+", re.I)
_NAME_PART = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")


def clauses(text: str) -> list[str]:
    """'Find the weather in Paris and then in London.' -> ['Find the weather in Paris', 'in London.']"""
    return [part.strip() for part in _CLAUSE_END.split(text) if part and part.strip()]


def _words(text: str) -> set[str]:
    return {word for word in content_words(text) if word not in GENERIC}


def _name_words(name: str) -> set[str]:
    """'get_weather' -> {'weather'}; 'setLightColor' -> {'light', 'color'}."""
    return _words(" ".join(_NAME_PART.findall(name)))


def _same(a: str, b: str) -> bool:
    short, long = sorted((a, b), key=len)
    return short == long or (len(short) >= MIN_STEM and long.startswith(short))


def _shared(wanted: set[str], words: set[str]) -> int:
    return sum(1 for word in words if any(_same(word, w) for w in wanted))


def request_words(text: str) -> set[str]:
    """The clause's content words and the words they imply (RELATED)."""
    words = _words(text)
    return words | {related for word in words for related in RELATED.get(word, ())}


def score(clause: str, declaration: dict, schema: dict | None) -> int:
    """How strongly `clause` asks for the declared function (0: not at all)."""
    name = declaration.get("name", "")
    wanted = request_words(clause)
    properties = (schema or {}).get("properties") or {}
    named = _shared(wanted, _name_words(name)) * SCORE_NAME
    described = _shared(wanted, _words(declaration.get("description") or "")) * SCORE_DESCRIPTION
    verbatim = SCORE_VERBATIM if re.search(rf"\b{re.escape(name)}\b", clause) else 0
    if not (named or described or verbatim):
        return 0
    parameters = sum(SCORE_PARAMETER * _shared(wanted, _name_words(p)) +
                     SCORE_DESCRIPTION * _shared(wanted, _words(str(prop.get("description") or "")))
                     for p, prop in properties.items() if isinstance(prop, dict))
    return named + described + verbatim + parameters


def plan(text: str, declarations: list[dict], schema_of=lambda d: d.get("parameters")) -> list[tuple[dict, str]]:
    """(declaration, clause) for each call the request asks for, in the order it asks."""
    calls, previous = [], []
    for clause in clauses(text):
        scored = [(score(clause, d, schema_of(d)), i) for i, d in enumerate(declarations)]
        best = max((points for points, _ in scored), default=0)
        chosen = [declarations[i] for points, i in scored if best and points == best]
        if not chosen and previous and _words(clause):  # "... and in London": the same call, new values
            chosen = previous
        calls += [(declaration, clause) for declaration in chosen]
        previous = chosen or previous
    return calls

"""A small built-in course corpus and the `search_course` tool the tutor sessions use.

Thirty-three short passages on context engineering (passages.md, written for the workbook) stand in
for the course a tutor answers from. `search_course` ranks them by the query's words, rarer words
counting more, and returns the best few as one text: the kind of long, stale-after-one-turn tool
output that dominates a tutor's context (the Towards AI tutor article).

    >>> len(passages())
    33
    >>> print(search_course("Why does a timestamp in the system instruction break the cache?", k=1)[:60])
    [timestamps] Why do timestamps in the system instruction hur
"""

import math
import re
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

from google.genai import types

from harness.plumbing.arguments import checked
from harness.scenarios.course import glass_box  # registers the tutor's policy with the engine

SEARCH_RESULTS = 4  # passages per search: enough that an uncapped result is long
_WORD = re.compile(r"[a-z]{3,}")
_IGNORED = frozenset(
    "the and for are was what which how why does when with from that this into your you can".split()
)


class Passage(NamedTuple):
    id: str
    title: str
    text: str


@lru_cache(maxsize=1)
def passages() -> tuple[Passage, ...]:
    """The corpus, parsed from `## id: Title` sections of passages.md."""
    source = (Path(__file__).parent / "passages.md").read_text(encoding="utf-8")
    found = re.findall(r"^## ([\w-]+): ([^\n]+)\n(.+?)(?=\n## |\Z)", source, re.M | re.S)
    return tuple(Passage(pid, title.strip(), text.strip()) for pid, title, text in found)


def _words(text: str) -> set[str]:
    """Lowercase words of 3+ letters, common ones left out, a plural 's' dropped."""
    words = {w for w in _WORD.findall(text.lower()) if w not in _IGNORED}
    return {w[:-1] if w.endswith("s") and not w.endswith("ss") and len(w) > 3 else w for w in words}


@lru_cache(maxsize=1)
def _vocabulary() -> tuple[frozenset[str], ...]:
    """The words of each passage, title included: worked out once, since every tutor turn
    searches."""
    return tuple(frozenset(_words(p.title + " " + p.text)) for p in passages())


@checked(k=(1, 100))
def search_course(query: str, k: int = SEARCH_RESULTS) -> str:
    """The `k` passages that best match `query`, each headed by its id and title."""
    corpus, vocab = passages(), _vocabulary()
    wanted = _words(query)
    # A word found in few passages says more about which passage is meant: weight it by log(N/df).
    weight = {
        w: math.log(len(corpus) / sum(w in v for v in vocab))
        for w in wanted
        if any(w in v for v in vocab)
    }
    ranked = sorted(
        range(len(corpus)), key=lambda i: -sum(weight.get(w, 0) for w in vocab[i] & wanted)
    )
    return "\n\n".join(f"[{corpus[i].id}] {corpus[i].title}\n{corpus[i].text}" for i in ranked[:k])


SEARCH_COURSE = types.FunctionDeclaration(
    name=glass_box.TOOL,
    description=(
        "Search the course for passages that answer a question. Returns the best passages as text."
    ),
    parameters=types.Schema(
        type="OBJECT", properties={"query": types.Schema(type="STRING")}, required=["query"]
    ),
)
TUTOR_TOOLS = [types.Tool(function_declarations=[SEARCH_COURSE])]

TUTOR_SYSTEM = (
    "You are the tutor of the Context Engineering course. Answer the student's questions from the "
    "course: call search_course with the question, then answer from the passages it returns. "
    "Keep in mind what the student tells you about themselves and their project."
)

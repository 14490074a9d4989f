"""The reader: answer the last user message from what the request holds, and nothing else.

It splits the context (system instruction, earlier messages, and the statements that come with
the question) into sentences, scores each by the content words it shares with the question, and
quotes the best one or two. With nothing relevant in view it says so, in one fixed sentence:

    >>> answer_text("What is my dog called?", context="I live in Lyon. My dog is called Rex.")
    'From what I can see: "My dog is called Rex."'
    >>> answer_text("What is my dog called?", context="I live in Lyon.")
    "I don't know: nothing in what I was given says that."

So a planted fact is recalled if and only if it is in the window: the lever every lesson pulls.
A message with no question gets a short acknowledgement, so chat loops still grow the history.
"""

import functools
import re

from harness.engine.prompt import content_text, response_output, system_text

DONT_KNOW = "I don't know: nothing in what I was given says that."
MAX_QUOTE_WORDS = 24  # two quotes of this length keep a reply under 60 words
ACK_WORDS = 8  # how much of a statement the acknowledgement repeats

# Words that say nothing about which sentence answers: question words, fillers, pronouns.
STOP_WORDS = frozenset(
    """
    the and for are was were what which who whom whose when where why how tell about know does did
    you your yours have has had that this these those with from into can could would should will
    shall may might there their them they any all some please remember recall said say mention
    mentioned given nothing not but its also just like then than our ours mine been being get got
    give let here again still yes don isn aren doesn didn won wasn weren one she her his him
    over under after before each every other more most less only very much many
""".split()
)

_WORD = re.compile(r"[^\W_]+")
# Sentence ends, and the "; " the summariser puts between the items of one heading line.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|;\s+")
_MARKUP = re.compile(r"^\s*(?:[-*>#]+\s*|\d+[.)]\s+)*")


def content_words(text: str) -> list[str]:
    """'What are my 2 dogs called?' -> ['2', 'dog', 'called']: lowercase, numbers, words of 3+
    letters that are not stop words, a plural 's' dropped (but not the 'ss' of 'class')."""
    return list(_content_words(text))


# A conversation resends the same sentences on every call, and the reader scores each of them
# against each question: the words of each distinct text are found once.
@functools.lru_cache(maxsize=8_192)
def _content_words(text: str) -> tuple[str, ...]:
    words = []
    for word in _WORD.findall(text.lower()):
        if word.isdigit() or (len(word) >= 3 and word not in STOP_WORDS):
            words.append(
                word[:-1]
                if word.endswith("s") and not word.endswith("ss") and len(word) > 3
                else word
            )
    return tuple(words)


def sentences(text: str) -> list[str]:
    """Lines split at sentence ends, list markers stripped, empty ones dropped."""
    return [sentence for line in text.splitlines() for sentence in _line_sentences(line)]


# the lines of a conversation come back on every call, like its words
@functools.lru_cache(maxsize=8_192)
def _line_sentences(line: str) -> tuple[str, ...]:
    return tuple(s.strip() for s in _SENTENCE_END.split(_MARKUP.sub("", line).strip()) if s.strip())


# Two words match when they are equal or the shorter, of 4+ letters, starts the longer: 'park'
# matches 'parked', 'live' matches 'lived' (a crude stem, enough for planted facts). Kept as sets,
# so a question word is matched against a sentence in a few lookups, not a loop over its words.
MIN_STEM = 4


@functools.lru_cache(maxsize=8_192)
def _sentence_index(sentence: str) -> tuple[frozenset[str], frozenset[str]]:
    """The sentence's words, and every start of 4+ letters of each (the words a longer one
    matches)."""
    words = frozenset(_content_words(sentence))
    return words, frozenset(w[:k] for w in words for k in range(MIN_STEM, len(w) + 1))


def score(question_words: list[str], sentence: str) -> int:
    """How many distinct question words the sentence contains.

    >>> score(["parked", "car", "live"], "I park my car where I lived.")
    3
    """
    words, starts = _sentence_index(sentence)
    return sum(
        1
        for q in set(question_words)
        if q in words or q in starts or not words.isdisjoint(_stems(q))
    )


@functools.lru_cache(maxsize=8_192)
def _stems(word: str) -> frozenset[str]:
    """Every start of 4+ letters of `word` shorter than it (the shorter words it matches)."""
    return frozenset(word[:k] for k in range(MIN_STEM, len(word)))


def _clip(sentence: str) -> str:
    words = sentence.split()
    return sentence if len(words) <= MAX_QUOTE_WORDS else " ".join(words[:MAX_QUOTE_WORDS]) + " ..."


def answer_text(question: str, context: str) -> str:
    """Quote the one or two context sentences that best answer `question`, or DONT_KNOW."""
    wanted = content_words(question)
    if not wanted:
        return DONT_KNOW
    needed = 1 if len(wanted) <= 3 else 2  # a long question needs more than one word in common
    # Questions are not answers: an earlier "Who is my manager?" must not answer itself.
    scored = [(score(wanted, s), s) for s in sentences(context) if not s.endswith("?")]
    best = max((points for points, _ in scored), default=0)
    if best < needed:
        return DONT_KNOW
    # Ties go to the latest sentences: what was said last overrides what was said before.
    top = [s for points, s in scored if points == best]
    chosen = list(dict.fromkeys(reversed(top)))[:2][::-1]
    return "From what I can see: " + " ".join(f'"{_clip(s)}"' for s in chosen)


def acknowledge(statement: str) -> str:
    """'My name is Ana.' -> 'Noted: "My name is Ana."' (a few words quoted, nothing added)."""
    words = statement.split()
    if not words:
        return "Noted."
    quoted = " ".join(words[:ACK_WORDS]) + (" ..." if len(words) > ACK_WORDS else "")
    return f'Noted: "{quoted}"'


def _turns(contents: list, last: int | None) -> list[tuple[str, str]]:
    """(role, text) of each earlier turn, a tool's outputs as turns of their own.

    NOTE: the SDK's chat records a streamed reply as one model message per chunk, cut between words
    ('The ' | 'launch code is ...'): such pieces are joined into one turn again, not read as two
    lines.
    """
    turns = []
    for index, content in enumerate(contents):
        if index == last:
            continue
        role, text = content.get("role") or "user", content_text(content)
        if role == "model" and turns and turns[-1][0] == role and turns[-1][1].endswith(" "):
            turns[-1] = (role, turns[-1][1] + text)
        else:
            turns.append((role, text))
        turns += [
            ("tool", response_output(p))
            for p in content.get("parts") or []
            if "functionResponse" in p
        ]
    return turns


def answer(request: dict) -> str:
    """The reader's reply to a request: its last user message answered from the rest of it."""
    contents = request.get("contents") or []
    last = max(
        (
            i
            for i, c in enumerate(contents)
            if (c.get("role") or "user") == "user" and content_text(c).strip()
        ),
        default=None,
    )
    context = [system_text(request)] + [text for _, text in _turns(contents, last)]
    message = content_text(contents[last]) if last is not None else ""
    questions = [s for s in sentences(message) if s.endswith("?")]
    statements = [s for s in sentences(message) if not s.endswith("?")]
    if not questions:
        return acknowledge(message.strip())
    return answer_text(" ".join(questions), "\n".join(context + statements))


def respond(request: dict) -> list[dict]:
    """The reader's reply as response parts."""
    return [{"text": answer(request)}]

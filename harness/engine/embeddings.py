"""Embeddings: `embedContent` and `batchEmbedContents`, with vectors that follow meanings it knows.

The glass box has no language model, so it embeds with a small table of meanings instead
(concepts.txt, beside this file): 1,043 common English words in 418 concepts of the same meaning
("sick", "ill") under 12 topics ("health"). A known word's vector is its concept's direction, plus
half of its topic's and 0.4 of its own, made unit length: two synonyms then have cosine 0.89, two
words of one topic about 0.18, two unrelated words about 0. A word is looked up as written or less
an ending (-s, -es, -ed, -ing, -er, -est, -ly), and only a form the table holds is accepted; very
common words ("the", "which") are dropped. A text's vector is the normalised sum of its words'
vectors, every word counting the same. So a paraphrase lands near its original although they share
no word, and two texts on the same topic are nearer each other than two on different ones:

    >>> query = vector("Should an ill worker remain at the house?", 768)
    >>> near, far = vector("Employees who feel sick should stay home.", 768), vector("The cat sat on the mat", 768)
    >>> round(cosine(query, near), 2), round(cosine(query, far), 2)
    (0.8, 0.02)

A word the table does not hold (an invented code name such as "Zorblax", a rare word) is not
understood: it is a direction of its own, related to nothing, weighing UNKNOWN (0.75) of a known
word. A number is the concept "number" and a little of its own value, weighing NUMBER (0.3). That
is the failure real embeddings show and keyword search does not: "an invented code name means
almost nothing to an embedding". A question about Zorblax reads, to this embedder, as a question
about its topic words; among many texts on that topic, the one that names Zorblax gains only its
name's small share, while keyword search (BM25), for which a rare word is the strongest evidence,
ranks it first.

What it stands for, and what it does not. It stands for the two properties of a real embedding
that retrieval depends on: texts of the same meaning are near, and a name it never learned carries
little meaning. It is not a language model's embedding: a real one learns its meanings from text,
knows hundreds of thousands of words, weighs a word by its context ("may" the month and "may" the
permission are one word here), reads word order and negation (a text is a bag of words here),
splits an unknown name into sub-word pieces that carry a little meaning, and gives common words
little weight by training rather than by a list. Its similarities are set by three weights, not
measured on text, so compare directions with a real model, never digits. `taskType` is checked but
changes nothing. For the multimodal model an inline image, sound or document is one "word" of its
own (its bytes hashed) at full weight: the same file always embeds the same, and it shares nothing
with any text.

The models, one row each in harness/models.py (EMBEDDING_MODELS). Both give 3072 dimensions by
default; a smaller `outputDimensionality` gives the start of the 3072 vector (Matryoshka truncation:
the REST quickstart's saved output for 256 begins with the full vector's values), so only the 3072
vector is unit length: the docs tell you to normalise the others yourself, and the glass box's need
it too. The docs recommend 768, 1536 or 3072 and list 128-3072 as supported, but the cookbook's own
cells send 10, 3 and 4 (quickstarts/Embeddings, Batch_mode, Aug 2026), so any size from 1 to 3072 is
served. The SDK's `client.models.embed_content` sends `batchEmbedContents` (google-genai 3.6.1), all
its contents in ONE call: past MAX_BATCH of them, a caller must split them itself
(harness/retrieval.py does).
"""

import base64
import functools
import hashlib
import math
import re
import struct
from pathlib import Path

import numpy as np

from harness.engine.fields import CONTENT, _enum, _message, _repeated, normalise
from harness.engine.prompt import parts_tokens
from harness.engine.wire import WireError, check_parts, invalid
from harness.models import EMBEDDING_MODELS, NOT_FOUND, SHUT_DOWN, EmbeddingModel
from harness.tokens import approx_tokens

EMBEDDING_MODEL = (  # the text-only model, the one the OpenAI-compatible cells name
    "gemini-embedding-001"
)
# 3072: every vector is cut from one this long
FULL_DIMENSIONS = max(row.dimensions for row in EMBEDDING_MODELS.values())
# Requests per batchEmbedContents. [3P] Gemini's 400 "at most 100 requests can be in one batch",
# quoted in langchain-ai/langchainjs #4491 (2024-02-22), weaviate/weaviate PR #11277 (2026-05-12:
# "not well documented by Google") and vercel/ai PR #16575 (2026-07-02); Google's pages do not state
# it (read 2026-12-03).
MAX_BATCH = 100
# [OFF] ai.google.dev/api/rest/v1beta/TaskType, plus CODE_RETRIEVAL_QUERY from docs/embeddings
# (2026-12-01)
TASK_TYPES = (
    "TASK_TYPE_UNSPECIFIED",
    "RETRIEVAL_QUERY",
    "RETRIEVAL_DOCUMENT",
    "SEMANTIC_SIMILARITY",
    "CLASSIFICATION",
    "CLUSTERING",
    "QUESTION_ANSWERING",
    "FACT_VERIFICATION",
    "CODE_RETRIEVAL_QUERY",
)
# Words too common to say what a text is about; without this list every English sentence would look
# alike.
COMMON_WORDS = frozenset(
    "a an and are as at be by for from has have i in is it its of on or that the this to "
    "was were will with what which who how do does you your my we our when where why "
    "there here they them their he she him her his me us these those some any such than "
    "then too very just also only about into over under out up down off again not no if so "
    "can could would shall should might must been being did done had am but all each every "
    "before after during within through behind back".split()
)
_WORD = re.compile(r"\w+")

CONCEPTS = Path(__file__).with_name("concepts.txt")
# A known word's vector, before it is made unit length: its concept's direction, a pull towards its
# topic (texts on one topic lean together) and a little of its own (the exact word matches best).
# With these weights two synonyms have cosine 0.89, two words of one topic 0.18, two unrelated words
# about 0.
TOPIC, CONCEPT, OWN = 0.5, 1.0, 0.4
UNKNOWN = 0.75  # what a word the table does not hold weighs, against 1 for a known word
NUMBER = 0.3  # what a number weighs: an embedding knows 4187 is a number, and little more
# Endings tried, in order, when a word is not in the table as written: (ending, what replaces it).
ENDINGS = (
    ("ies", "y"),
    ("es", ""),
    ("s", ""),
    ("ied", "y"),
    ("ed", ""),
    ("ed", "e"),
    ("ing", ""),
    ("ing", "e"),
    ("er", ""),
    ("er", "e"),
    ("est", ""),
    ("ly", ""),
)

EMBED_REQUEST = _message(
    "EmbedContentRequest",
    model="string",
    content=CONTENT,
    taskType=_enum("TaskType", TASK_TYPES),
    title="string",
    outputDimensionality="int",
)
BATCH_REQUEST = _message("BatchEmbedContentsRequest", requests=_repeated(EMBED_REQUEST))


@functools.cache
def vocabulary() -> dict[str, tuple[str, str]]:
    """concepts.txt as {word: (topic, concept)}, a concept named by its first word."""
    table, topic = {}, ""
    for line in CONCEPTS.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            topic = line[3:].strip()
        elif line.strip() and not line.startswith("#"):
            concept = line.split()
            table.update((word, (topic, concept[0])) for word in concept)
    return table


@functools.lru_cache(maxsize=65536)
def known(word: str) -> str | None:
    """The table's form of a lower-cased word: itself, or itself less an ending (a doubled consonant
    undone: "running" -> "run"); None for a word the table does not hold.

    >>> known("scheduled"), known("running"), known("employees"), known("zorblax")
    ('schedule', 'run', 'employee', None)
    """
    table = vocabulary()
    if word in table:
        return word
    for ending, replacement in ENDINGS:
        stem = word[: -len(ending)]
        if word.endswith(ending) and len(stem) >= 3:
            for candidate in (stem + replacement, stem[:-1] if stem[-1] == stem[-2] else None):
                if candidate in table:
                    return candidate
    return None


def words(text: str) -> list[str]:
    """The words that count: lower-cased, common words left out, each in the table's form when
    known.

    >>> words("The plants of March, Zorblax-7")
    ['plant', 'march', 'zorblax', '7']
    """
    found = (w.lower() for w in _WORD.findall(text))
    return [known(w) or w for w in found if w not in COMMON_WORDS]


def _directions(keys: list[str]) -> np.ndarray:
    """A fixed unit direction for each key, one row each: FULL_DIMENSIONS bytes of its hash, each
    centred on 127.5 (so a direction's values average zero), the same on every machine."""
    digests = b"".join(hashlib.shake_256(key.encode()).digest(FULL_DIMENSIONS) for key in keys)
    rows = np.frombuffer(digests, dtype=np.uint8).reshape(len(keys), FULL_DIMENSIONS) - np.float32(
        127.5
    )
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def _mixed(concept: np.ndarray, own: np.ndarray, topic: np.ndarray | None = None) -> np.ndarray:
    """Unit rows of CONCEPT x concept + OWN x own (+ TOPIC x topic): how a known word is made.
    Summed in place, in float32 as the inputs: with the rows gathered by index (_known_vectors),
    building the whole table went from 0.61 to 0.40 CPU-s here (2026-12-03)."""
    rows = CONCEPT * concept
    rows += OWN * own
    if topic is not None:
        rows += TOPIC * topic
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    return rows


@functools.cache
def _known_vectors() -> tuple[dict[str, int], np.ndarray]:
    """Every known word's unit vector, one row each, and the row of each word (built once: 13
    MB)."""
    table = vocabulary()
    topics = sorted({topic for topic, _ in table.values()})
    concepts = sorted({concept for _, concept in table.values()})
    topic_at = {name: i for i, name in enumerate(topics)}
    concept_at = {name: i for i, name in enumerate(concepts)}
    rows = _mixed(
        _directions([f"concept:{name}" for name in concepts])[
            [concept_at[concept] for _, concept in table.values()]
        ],
        _directions([f"word:{word}" for word in table]),
        _directions([f"topic:{name}" for name in topics])[
            [topic_at[topic] for topic, _ in table.values()]
        ],
    )
    return {word: row for row, word in enumerate(table)}, rows


def _other_vectors(terms: list[str]) -> np.ndarray:
    """The vectors of terms the table does not hold, one row each: a number is the concept "number"
    and a little of its own value, weighing NUMBER; an inline file is its own direction at full
    weight; any other word is its own direction, weighing UNKNOWN."""
    rows = _directions([f"word:{term}" for term in terms])
    numbers = [i for i, term in enumerate(terms) if term.isdigit()]
    if numbers:
        concept = np.repeat(_directions(["concept:number"]), len(numbers), axis=0)
        rows[numbers] = NUMBER * _mixed(concept, rows[numbers])
    weights = [1.0 if term.startswith("file:") else UNKNOWN for term in terms]
    plain = [i for i, term in enumerate(terms) if not term.isdigit()]
    rows[plain] *= np.array(weights, dtype=np.float32)[plain, None]
    return rows.astype(np.float32)


def unit_rows(term_lists: list[list[str]]) -> np.ndarray:
    """The full-length unit vector of each text's terms, one row each (zeros for a text with none).

    A text's vector is the sum of its terms' vectors: the known words' rows gathered from the table,
    and the vectors of the other terms, made once for the whole batch.
    """
    index, known_rows = _known_vectors()
    others: dict[str, int] = {}
    found = [
        (
            [index[t] for t in terms if t in index],
            [others.setdefault(t, len(others)) for t in terms if t not in index],
        )
        for terms in term_lists
    ]
    other_rows = _other_vectors(list(others)) if others else None
    total = np.zeros((len(term_lists), FULL_DIMENSIONS), dtype=np.float32)
    for row, (known_at, other_at) in enumerate(found):
        if known_at:
            total[row] += known_rows[known_at].sum(axis=0)
        if other_at:
            total[row] += other_rows[other_at].sum(axis=0)
    norms = np.linalg.norm(total.astype(np.float64), axis=1, keepdims=True)
    return np.divide(total, norms, out=np.zeros(total.shape), where=norms > 0)


def _values(row: np.ndarray, dimensions: int) -> list[float]:
    """The first `dimensions` values of a unit vector, as the wire carries them."""
    return np.round(row[:dimensions], 6).tolist()


def vector(text: str, dimensions: int = FULL_DIMENSIONS) -> list[float]:
    """The first `dimensions` values of the text's unit vector."""
    return _values(unit_rows([words(text)])[0], dimensions)


def cosine(a: list[float], b: list[float]) -> float:
    """Cosine similarity of two vectors of the same length (0.0 when either is all zeros)."""
    norms = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return sum(x * y for x, y in zip(a, b)) / norms if norms else 0.0


def as_base64(values: list[float]) -> str:
    """The vector as little-endian float32 bytes in base64, as OpenAI's
    `encoding_format="base64"`."""
    return base64.b64encode(struct.pack(f"<{len(values)}f", *values)).decode()


def check_model(name: str, api_version: str, method: str) -> EmbeddingModel:
    """The embedding model's row; Gemini's 404 for any other name (a chat model cannot embed),
    followed by the names of the embedding models served here, except for an id Gemini has shut down
    (its words only).
    """
    model = name.removeprefix("models/")
    if model in EMBEDDING_MODELS:
        return EMBEDDING_MODELS[model]
    said = NOT_FOUND.format(model=model, version=api_version, method=method)
    if model not in SHUT_DOWN:
        said += f" (The glass box embeds with {' and '.join(EMBEDDING_MODELS)}.)"
    raise WireError(404, "NOT_FOUND", said)


def dimensions_of(asked: int | None, where: str) -> int:
    """The vector length a request asks for (0 or unset: the default); a 400 past the full
    vector. NOTE: Gemini's words for this 400 were not found (issues, docs and code searched
    2026-12-02); these are the glass box's, naming the range."""
    if not asked:
        return FULL_DIMENSIONS
    if not 1 <= asked <= FULL_DIMENSIONS:
        raise invalid(
            f"* {where}.output_dimensionality: the embedding models give vectors of up to "
            f"{FULL_DIMENSIONS} dimensions, not {asked}. Ask for 768, 1536 or 3072 (the sizes the "
            f"docs recommend), or leave it unset for {FULL_DIMENSIONS}."
        )
    return asked


def _within(text: str, limit: int) -> str:
    """The start of `text` that fits in `limit` tokens."""
    kept = []
    # NOTE: approx_tokens never counts across a space, so words add up exactly
    for word in text.split():
        limit -= approx_tokens(word)
        if limit < 0:
            break
        kept.append(word)
    return " ".join(kept)


def terms_of(content: dict, model: EmbeddingModel, where: str) -> list[str]:
    """What an embedding reads of a content: the words of its text, up to the model's input
    limit, and (multimodal model) one term per inline file, from its bytes."""
    parts = content.get("parts") or []
    if not parts:
        raise invalid(f"* {where}.content.parts: contents.parts must not be empty.")
    check_parts(parts, f"{where}.content")
    if not model.multimodal and any("text" not in part for part in parts):
        raise invalid(
            f"* {where}.content: {model.id} embeds text only; send text parts, or use "
            "gemini-embedding-2 for images, audio, video and PDFs."
        )
    if any("text" not in part and "inlineData" not in part for part in parts):
        raise invalid(
            f"* {where}.content: the glass box embeds text and inline data; send a file's bytes "
            "inline (it is offline and reads no file URI)."
        )
    text = " ".join(part["text"] for part in parts if "text" in part)
    if parts_tokens([part for part in parts if "text" in part]) > model.input_token_limit:
        text = _within(text, model.input_token_limit)
    files = [
        hashlib.sha256(
            f"{p['inlineData'].get('mimeType')}:{p['inlineData'].get('data')}".encode()
        ).hexdigest()
        for p in parts
        if "inlineData" in p
    ]
    # "file:..." has a colon: never a word
    return words(text) + [f"file:{digest}" for digest in files]


def _asked(request: dict, model: EmbeddingModel, where: str) -> tuple[list[str], int]:
    """(the terms, the vector length) one request of a batch asks for."""
    if request.get("model") and request["model"].removeprefix("models/") != model.id:
        raise invalid(
            f"* {where}.model: the model of each request"
            f" (models/{request['model'].removeprefix('models/')}) must be the model of the batch"
            f" (models/{model.id})."
        )
    size = dimensions_of(request.get("outputDimensionality"), where)
    # A document's title counts: it says what the document is about.
    return (
        words(request.get("title") or "") + terms_of(request.get("content") or {}, model, where),
        size,
    )


def _embeddings(requests: list[dict], model: EmbeddingModel, where: str) -> list[dict]:
    """One embedding per request, the whole batch computed at once (`unit_rows`)."""
    asked = [_asked(request, model, where.format(i)) for i, request in enumerate(requests)]
    rows = unit_rows([terms for terms, _ in asked])
    return [{"values": _values(row, size)} for row, (_, size) in zip(rows, asked)]


def content_vector(
    content: dict, model: EmbeddingModel, dimensions: int, where: str
) -> list[float]:
    """The vector `model` gives `content`, cut to `dimensions` values."""
    return _values(unit_rows([terms_of(content, model, where)])[0], dimensions)


def embed(model_name: str, body: dict, api_version: str) -> dict:
    """An EmbedContentResponse: `{"embedding": {"values": [...]}}`."""
    model = check_model(model_name, api_version, "embedContent")
    return {
        "embedding": _embeddings([normalise(body, EMBED_REQUEST)], model, "EmbedContentRequest")[0]
    }


def batch_embed(model_name: str, body: dict, api_version: str) -> dict:
    """A BatchEmbedContentsResponse: one embedding per request, in order."""
    model = check_model(model_name, api_version, "batchEmbedContents")
    requests = normalise(body, BATCH_REQUEST).get("requests") or []
    if not requests:
        raise invalid("* BatchEmbedContentsRequest.requests: requests is not specified")
    if len(requests) > MAX_BATCH:
        raise invalid(
            f"* BatchEmbedContentsRequest.requests: at most {MAX_BATCH} requests can be in one"
            f" batch, got {len(requests)}; send them in several batches."
        )
    return {"embeddings": _embeddings(requests, model, "BatchEmbedContentsRequest.requests[{}]")}

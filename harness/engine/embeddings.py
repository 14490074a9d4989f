"""Embeddings: `embedContent` and `batchEmbedContents`, with vectors that follow shared words.

The glass box has no meaning to embed, so it embeds words: each word of the text (lower-cased, with
a plural "s" and a few very common words dropped) stands for a fixed pseudo-random direction, the
same on every machine, and a text's vector is the normalised sum of its words' directions. Cosine
similarity then follows shared words: texts with many words in common point the same way, texts
with none are close to orthogonal, so a retrieval cell ranks its texts sensibly offline.

    >>> query = vector("How do I water a tomato plant?", 768)
    >>> near, far = vector("Water tomato plants at the root", 768), vector("The cat sat on the mat", 768)
    >>> round(cosine(query, near), 2), round(cosine(query, far), 2)
    (0.88, -0.01)

It is not a language model's embedding: synonyms share nothing here ("car" and "automobile" are as
far apart as "car" and "banana"), and `taskType` is checked but changes nothing. For the multimodal
model an inline image, sound or document is one "word" of its own (its bytes hashed): the same file
always embeds the same, and it shares nothing with any text.

The models, one row each in harness/models.py (EMBEDDING_MODELS). Both give 3072 dimensions by default; a smaller
`outputDimensionality` gives the start of the 3072 vector (Matryoshka truncation: the REST
quickstart's saved output for 256 begins with the full vector's values), so only the 3072 vector is
unit length: the docs tell you to normalise the others yourself, and the glass box's need it too.
The docs recommend 768, 1536 or 3072 and list 128-3072 as supported, but the cookbook's own cells send
10, 3 and 4 (quickstarts/Embeddings, Batch_mode, Aug 2026), so any size from 1 to 3072 is served.
The SDK's `client.models.embed_content` sends `batchEmbedContents` (google-genai 3.6.1).
"""
import base64
import functools
import hashlib
import math
import re
import struct

from harness.engine.fields import CONTENT, _enum, _message, _repeated, normalise
from harness.engine.prompt import parts_tokens
from harness.engine.wire import WireError, check_parts, invalid
from harness.models import EMBEDDING_MODELS, NOT_FOUND, SHUT_DOWN, EmbeddingModel
from harness.tokens import approx_tokens

EMBEDDING_MODEL = "gemini-embedding-001"  # the text-only model, the one the OpenAI-compatible cells name
FULL_DIMENSIONS = max(row.dimensions for row in EMBEDDING_MODELS.values())  # 3072: every vector is cut from one this long
MAX_BATCH = 100  # requests per batchEmbedContents [3P] client code and reports, 2025-2026
# [OFF] ai.google.dev/api/rest/v1beta/TaskType, plus CODE_RETRIEVAL_QUERY from docs/embeddings (2026-12-01)
TASK_TYPES = ("TASK_TYPE_UNSPECIFIED", "RETRIEVAL_QUERY", "RETRIEVAL_DOCUMENT", "SEMANTIC_SIMILARITY",
              "CLASSIFICATION", "CLUSTERING", "QUESTION_ANSWERING", "FACT_VERIFICATION", "CODE_RETRIEVAL_QUERY")
# Words too common to say what a text is about; without this list every English sentence would look alike.
COMMON_WORDS = frozenset("a an and are as at be by for from has have i in is it its of on or that the this to "
                         "was were will with what which who how do does you your my we our".split())
_WORD = re.compile(r"\w+")

EMBED_REQUEST = _message("EmbedContentRequest", model="string", content=CONTENT,
                         taskType=_enum("TaskType", TASK_TYPES), title="string", outputDimensionality="int")
BATCH_REQUEST = _message("BatchEmbedContentsRequest", requests=_repeated(EMBED_REQUEST))


def words(text: str) -> list[str]:
    """The words that count: lower-cased, a final plural "s" dropped, common words left out.

    >>> words("The plants of March")
    ['plant', 'march']
    """
    found = (w.lower() for w in _WORD.findall(text))
    return [w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w
            for w in found if w not in COMMON_WORDS]


_FIELD = 4  # bytes per value when directions are summed as one big integer: room for 16 million terms


@functools.lru_cache(maxsize=16384)
def _direction(term: str) -> int:
    """A term's fixed direction: FULL_DIMENSIONS bytes from a hash of the term, each in a 4-byte field
    of one integer, so that adding integers adds directions value by value (in C, not a Python loop)."""
    fields = bytearray(FULL_DIMENSIONS * _FIELD)
    fields[::_FIELD] = hashlib.shake_256(term.encode()).digest(FULL_DIMENSIONS)
    return int.from_bytes(fields, "little")


def vector(text: str, dimensions: int = FULL_DIMENSIONS) -> list[float]:
    """The embedding of `text`: the first `dimensions` values of its unit 3072-vector."""
    return _unit(words(text), dimensions)


def _unit(terms: list[str], dimensions: int) -> list[float]:
    """The first `dimensions` values of the unit sum of the terms' directions (zeros for no terms).
    Each byte is centred on 127.5, so a direction's values average zero."""
    if not terms:
        return [0.0] * dimensions
    packed = sum(_direction(term) for term in terms).to_bytes(FULL_DIMENSIONS * _FIELD, "little")
    total = [v - 127.5 * len(terms) for v in struct.unpack(f"<{FULL_DIMENSIONS}I", packed)]
    norm = math.sqrt(sum(v * v for v in total)) or 1.0
    return [round(v / norm, 6) for v in total[:dimensions]]


def cosine(a: list[float], b: list[float]) -> float:
    """Cosine similarity of two vectors of the same length (0.0 when either is all zeros)."""
    norms = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return sum(x * y for x, y in zip(a, b)) / norms if norms else 0.0


def as_base64(values: list[float]) -> str:
    """The vector as little-endian float32 bytes in base64, as OpenAI's `encoding_format="base64"`."""
    return base64.b64encode(struct.pack(f"<{len(values)}f", *values)).decode()


def check_model(name: str, api_version: str, method: str) -> EmbeddingModel:
    """The embedding model's row; Gemini's 404 for any other name (a chat model cannot embed), followed by
    the names of the embedding models served here, except for an id Gemini has shut down (its words only)."""
    model = name.removeprefix("models/")
    if model in EMBEDDING_MODELS:
        return EMBEDDING_MODELS[model]
    said = NOT_FOUND.format(model=model, version=api_version, method=method)
    if model not in SHUT_DOWN:
        said += f" (The glass box embeds with {' and '.join(EMBEDDING_MODELS)}.)"
    raise WireError(404, "NOT_FOUND", said)


def dimensions_of(asked: int | None, where: str) -> int:
    """The vector length a request asks for (0 or unset: the default); a 400 past the full vector.
    NOTE: Gemini's words for this 400 were not found (issues, docs and code searched 2026-12-02); these are
    the glass box's, naming the range."""
    if not asked:
        return FULL_DIMENSIONS
    if not 1 <= asked <= FULL_DIMENSIONS:
        raise invalid(f"* {where}.output_dimensionality: the embedding models give vectors of up to "
                      f"{FULL_DIMENSIONS} dimensions, not {asked}. Ask for 768, 1536 or 3072 (the sizes the "
                      f"docs recommend), or leave it unset for {FULL_DIMENSIONS}.")
    return asked


def _within(text: str, limit: int) -> str:
    """The start of `text` that fits in `limit` tokens."""
    kept = []
    for word in text.split():  # NOTE: approx_tokens never counts across a space, so words add up exactly
        limit -= approx_tokens(word)
        if limit < 0:
            break
        kept.append(word)
    return " ".join(kept)


def terms_of(content: dict, model: EmbeddingModel, where: str) -> list[str]:
    """What an embedding reads of a content: the words of its text, up to the model's input limit, and
    (multimodal model) one term per inline file, from its bytes."""
    parts = content.get("parts") or []
    if not parts:
        raise invalid(f"* {where}.content.parts: contents.parts must not be empty.")
    check_parts(parts, f"{where}.content")
    if not model.multimodal and any("text" not in part for part in parts):
        raise invalid(f"* {where}.content: {model.id} embeds text only; send text parts, or use "
                      "gemini-embedding-2 for images, audio, video and PDFs.")
    if any("text" not in part and "inlineData" not in part for part in parts):
        raise invalid(f"* {where}.content: the glass box embeds text and inline data; send a file's bytes "
                      "inline (it is offline and reads no file URI).")
    text = " ".join(part["text"] for part in parts if "text" in part)
    if parts_tokens([part for part in parts if "text" in part]) > model.input_token_limit:
        text = _within(text, model.input_token_limit)
    files = [hashlib.sha256(f"{p['inlineData'].get('mimeType')}:{p['inlineData'].get('data')}".encode()).hexdigest()
             for p in parts if "inlineData" in p]
    return words(text) + [f"file:{digest}" for digest in files]  # "file:..." has a colon: never a word


def _embedding(request: dict, model: EmbeddingModel, where: str) -> dict:
    if request.get("model") and request["model"].removeprefix("models/") != model.id:
        raise invalid(f"* {where}.model: the model of each request (models/{request['model'].removeprefix('models/')}"
                      f") must be the model of the batch (models/{model.id}).")
    size = dimensions_of(request.get("outputDimensionality"), where)
    return {"values": content_vector(request.get("content") or {}, model, size, where, request.get("title") or "")}


def content_vector(content: dict, model: EmbeddingModel, dimensions: int, where: str, title: str = "") -> list[float]:
    """The vector `model` gives `content` (a document's title counts: it says what the document is about)."""
    return _unit(words(title) + terms_of(content, model, where), dimensions)


def embed(model_name: str, body: dict, api_version: str) -> dict:
    """An EmbedContentResponse: `{"embedding": {"values": [...]}}`."""
    model = check_model(model_name, api_version, "embedContent")
    return {"embedding": _embedding(normalise(body, EMBED_REQUEST), model, "EmbedContentRequest")}


def batch_embed(model_name: str, body: dict, api_version: str) -> dict:
    """A BatchEmbedContentsResponse: one embedding per request, in order."""
    model = check_model(model_name, api_version, "batchEmbedContents")
    requests = normalise(body, BATCH_REQUEST).get("requests") or []
    if not requests:
        raise invalid("* BatchEmbedContentsRequest.requests: requests is not specified")
    if len(requests) > MAX_BATCH:
        raise invalid(f"* BatchEmbedContentsRequest.requests: at most {MAX_BATCH} requests can be in one batch, "
                      f"got {len(requests)}; send them in several batches.")
    return {"embeddings": [_embedding(request, model, f"BatchEmbedContentsRequest.requests[{i}]")
                           for i, request in enumerate(requests)]}

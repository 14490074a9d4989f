"""Embeddings: `embedContent` and `batchEmbedContents`, with vectors that follow shared words.

The glass box has no meaning to embed, so it embeds words: each word of the text (lower-cased, with
a plural "s" and a few very common words dropped) stands for a fixed pseudo-random direction, the
same on every machine, and a text's vector is the normalised sum of its words' directions. Cosine
similarity then follows shared words: texts with many words in common point the same way, texts
with none are close to orthogonal, so a retrieval cell ranks its texts sensibly offline.

    >>> query = vector("How do I water a tomato plant?", 768)
    >>> near, far = vector("Water tomato plants at the root", 768), vector("The cat sat on the mat", 768)
    >>> round(cosine(query, near), 2), round(cosine(query, far), 2)
    (0.87, 0.02)

It is not a language model's embedding: synonyms share nothing here ("car" and "automobile" are as
far apart as "car" and "banana"), and `taskType` is checked but changes nothing.

`gemini-embedding-001` ([OFF] ai.google.dev/gemini-api/docs/models/gemini-embedding-001 and
docs/embeddings, read 2026-12-01): 3072 dimensions by default, any `outputDimensionality` from 128
to 3072 (768, 1536 and 3072 recommended), 2,048 input tokens, $0.15 per 1M input tokens. As with
Matryoshka embeddings, a smaller vector is the start of the 3072 one, so only the 3072 vector is
unit length: the docs tell you to normalise the others yourself, and the glass box's need it too.
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
from harness.tokens import approx_tokens

EMBEDDING_MODEL = "gemini-embedding-001"
FULL_DIMENSIONS = 3072  # the default and the largest outputDimensionality [OFF, as above]
MIN_DIMENSIONS = 128  # the smallest the model card lists [OFF, as above]
INPUT_TOKEN_LIMIT = 2048  # [OFF, as above]; text past it is not read (glass-box choice: not a 400)
PRICE_PER_MILLION_INPUT = 0.15  # dollars [OFF] developers.googleblog.com, Gemini Embedding GA, 2025
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


@functools.lru_cache(maxsize=8192)
def _direction(word: str) -> tuple[int, ...]:
    """A word's fixed direction: FULL_DIMENSIONS signed bytes from a hash of the word (the sum is
    normalised afterwards, so their scale does not matter)."""
    return struct.unpack(f"{FULL_DIMENSIONS}b", hashlib.shake_256(word.encode()).digest(FULL_DIMENSIONS))


def vector(text: str, dimensions: int = FULL_DIMENSIONS) -> list[float]:
    """The embedding of `text`: the first `dimensions` values of its unit 3072-vector."""
    directions = [_direction(word) for word in words(text)]
    total = list(map(sum, zip(*directions))) if directions else [0.0] * FULL_DIMENSIONS
    norm = math.sqrt(sum(v * v for v in total)) or 1.0  # a text with no words embeds as zeros
    return [round(v / norm, 6) for v in total[:dimensions]]


def cosine(a: list[float], b: list[float]) -> float:
    """Cosine similarity of two vectors of the same length (0.0 when either is all zeros)."""
    norms = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return sum(x * y for x, y in zip(a, b)) / norms if norms else 0.0


def as_base64(values: list[float]) -> str:
    """The vector as little-endian float32 bytes in base64, as OpenAI's `encoding_format="base64"`."""
    return base64.b64encode(struct.pack(f"<{len(values)}f", *values)).decode()


def check_model(name: str, api_version: str, method: str) -> str:
    """The embedding model's id; Gemini's 404 for any other name (a chat model cannot embed)."""
    model = name.removeprefix("models/")
    if model != EMBEDDING_MODEL:
        raise WireError(404, "NOT_FOUND", (
            f"models/{model} is not found for API version {api_version}, or is not supported for {method}. "
            f"Call ListModels to see the list of available models and their supported methods. (The glass "
            f"box embeds with {EMBEDDING_MODEL} only.)"))
    return model


def dimensions_of(asked: int | None, where: str) -> int:
    """The vector length a request asks for (0 or unset: the default); a 400 outside the model's range.
    NOTE: Gemini's words for this 400 were not found; these are the glass box's, naming the range."""
    if not asked:
        return FULL_DIMENSIONS
    if not MIN_DIMENSIONS <= asked <= FULL_DIMENSIONS:
        raise invalid(f"* {where}.output_dimensionality: {EMBEDDING_MODEL} gives vectors of {MIN_DIMENSIONS} "
                      f"to {FULL_DIMENSIONS} dimensions, not {asked}. Ask for 768, 1536 or 3072, or leave it "
                      "unset for 3072.")
    return asked


def text_of(content: dict, where: str) -> str:
    """The text an embedding reads: the content's text parts, up to the model's input limit."""
    parts = content.get("parts") or []
    if not parts:
        raise invalid(f"* {where}.content.parts: contents.parts must not be empty.")
    check_parts(parts, f"{where}.content")
    if any("text" not in part for part in parts):
        raise invalid(f"* {where}.content: {EMBEDDING_MODEL} embeds text only; send text parts.")
    text = " ".join(part["text"] for part in parts)
    if parts_tokens(parts) <= INPUT_TOKEN_LIMIT:
        return text
    kept, budget = [], INPUT_TOKEN_LIMIT
    for word in text.split():  # NOTE: approx_tokens never counts across a space, so words add up exactly
        budget -= approx_tokens(word)
        if budget < 0:
            break
        kept.append(word)
    return " ".join(kept)


def _embedding(request: dict, model: str, where: str) -> dict:
    if request.get("model") and request["model"].removeprefix("models/") != model:
        raise invalid(f"* {where}.model: the model of each request (models/{request['model'].removeprefix('models/')}"
                      f") must be the model of the batch (models/{model}).")
    size = dimensions_of(request.get("outputDimensionality"), where)
    text = text_of(request.get("content") or {}, where)
    if request.get("title"):  # a document's title is part of what it is about
        text = f"{request['title']} {text}"
    return {"values": vector(text, size)}


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

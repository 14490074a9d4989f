"""Lesson 12: retrieval into the budget. Fetch what a question needs, then fit it in a token budget.

The pipeline the Towards AI tutor article describes, with real parts: dense search (vectors from
the SDK's `client.models.embed_content`, cosine similarity) and keyword search (BM25, by the
`bm25s` library) side by side, their rankings fused by reciprocal rank fusion (12.1), a score
threshold, and what survives fills a token budget (12.2):

    >>> reciprocal_rank_fusion([["a", "b", "c"], ["c", "d"]])   # c is in both lists: first
    ['c', 'a', 'b', 'd']
    >>> fill_budget([("a", "one two three", 0.9), ("b", "x " * 50, 0.8), ("c", "four", 0.05),
    ...              ("d", "five six", 0.7)], budget=10, min_score=0.1)
    (['a', 'd'], 6)

Fusion rewards agreement: a page both searches find outranks one only one of them finds, even at
the top of its list (1/61 from one list is less than 1/70 + 1/80 from two). The article's pipeline
then re-ranks with a cross-encoder and keeps 5, and its 0.10 threshold is on that re-ranker's score.
The glass box has no re-ranker, and fusion scores never exceed 2/61 (two lists), so the threshold
here applies to the dense cosine of each fused page, in the fused order: a gate, not a re-ranking.

Embedding: `embed` sends at most MAX_BATCH texts per call (the SDK sends all its contents in one
call, and Gemini refuses more than 100), and makes each vector unit length (below 3072 dimensions
Gemini's are not). Searching: `SearchIndex` holds a corpus's vectors and its BM25 index.
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Callable

import bm25s
import numpy as np

from harness.engine.embeddings import EMBEDDING_MODEL, FULL_DIMENSIONS, MAX_BATCH, TASK_TYPES
from harness.plumbing.arguments import (
    checked,
    require_callable,
    require_fields,
    require_instance,
    require_int,
    require_list,
    require_list_of_text,
    require_number,
    require_text,
    shown,
)
from harness.scenarios.wiki import Needle
from harness.tokens import approx_tokens

# The Towards AI tutor article's pipeline: dense top 15 and BM25 top 30, fused, a threshold of 0.10.
DENSE_K, KEYWORD_K, THRESHOLD = 15, 30, 0.10
RRF_K = 60  # the constant of reciprocal rank fusion (Cormack, Clarke and Buettcher, 2009)
BUDGET = 3_000  # tokens of retrieved text per question: the article answered from about 3k
FUSED_TOP = 5  # what the article's re-ranker kept
# Vector length asked of the embedding model: the docs recommend 768 and list 128-3072 as supported;
# 256 keeps a lesson's Run All fast (the vectors cross the wire as JSON) and ranks as 768 does here.
DIMENSIONS = 256


def reciprocal_rank_fusion(rankings: list[list[str]], k: float = RRF_K) -> list[str]:
    """Every id of any ranking, best first by the sum, over the rankings that hold it, of
    1 / (k + its rank there), ranks counted from 1; ties by id ascending. Exercise 12.1."""
    rankings = _check_rankings(rankings, k)
    score = {}
    for ranking in rankings:
        for rank, doc in enumerate(ranking, start=1):
            score[doc] = score.get(doc, 0.0) + 1 / (k + rank)
    return sorted(score, key=lambda doc: (-score[doc], doc))


def _check_rankings(rankings, k) -> list[list[str]]:
    """The rankings as lists of ids; TypeError / ValueError naming what is wrong."""
    require_number("k", k, 0)
    lists = [
        list(require_list_of_text(f"rankings[{i}]", ranking))
        for i, ranking in enumerate(require_list("rankings", rankings, "ranked lists of ids"))
    ]
    for i, ranking in enumerate(lists):
        if len(set(ranking)) < len(ranking):
            twice = next(doc for doc in ranking if ranking.count(doc) > 1)
            raise ValueError(f"rankings[{i}] holds {twice!r} twice; a ranking lists each id once.")
    return lists


def fill_budget(
    passages: list[tuple[str, str, float]],
    budget: int,
    count: Callable = approx_tokens,
    min_score: float = 0.0,
) -> tuple[list, int]:
    """Walk (id, text, score) passages in the order given (best first): skip one scoring below
    `min_score`; keep one while the total stays within `budget`; skip one that does not fit and go
    on. The kept ids in order, and their total. Exercise 12.2."""
    passages = check_fill_arguments(passages, budget, count, min_score)
    kept, total = [], 0
    for doc, text, score in passages:
        if score < min_score:
            continue
        size = count(text)
        if total + size <= budget:
            kept.append(doc)
            total += size
    return kept, total


def check_fill_arguments(
    passages: list[tuple[str, str, float]], budget: int, count: Callable, min_score: float
) -> list[tuple]:
    """fill_budget's arguments checked, once, before any is used: `passages` as a list of (id, text,
    score) triples; TypeError / ValueError naming the argument that is wrong."""
    require_int("budget", budget, 0)
    require_callable("count", count)
    require_number("min_score", min_score, -math.inf)
    triples = list(require_list("passages", passages, "(id, text, score) triples"))
    for i, item in enumerate(triples):
        if isinstance(item, (str, bytes)) or not isinstance(item, Sequence) or len(item) != 3:
            raise TypeError(
                f"passages[{i}] must be an (id, text, score) triple, got {shown(item)}."
            )
        require_text(f"passages[{i}] text", item[1])
        require_number(f"passages[{i}] score", item[2], -math.inf)
    return triples


# --- the retrievers -------------------------------------------------------------------------------


def _task_type(name: str, value) -> None:
    require_text(name, value)
    if value not in TASK_TYPES:
        raise ValueError(f"{name} must be one of {', '.join(TASK_TYPES)}; got {shown(value)}.")


def _embedding_client(name: str, value) -> None:
    if not callable(getattr(getattr(value, "models", None), "embed_content", None)):
        raise TypeError(
            f"{name} must be a client with models.embed_content, e.g. harness.connect(), got "
            f"{type(value).__name__} {shown(value)}."
        )


@checked(client=_embedding_client, task_type=_task_type, dimensions=(1, FULL_DIMENSIONS))
def embed(client, texts: list[str], task_type: str, dimensions: int = DIMENSIONS) -> np.ndarray:
    """Unit vectors of `texts`, one row each, from `client.models.embed_content`, MAX_BATCH texts
    a call."""
    from google.genai import types

    if not texts:  # nothing to send: no rows
        return np.zeros((0, dimensions), dtype=np.float32)
    config = types.EmbedContentConfig(task_type=task_type, output_dimensionality=dimensions)
    rows = []
    for start in range(0, len(texts), MAX_BATCH):
        reply = client.models.embed_content(
            model=EMBEDDING_MODEL, contents=texts[start : start + MAX_BATCH], config=config
        )
        rows += [embedding.values for embedding in reply.embeddings]
    vectors = np.array(rows, dtype=np.float32).reshape(len(texts), -1)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return np.divide(vectors, norms, out=np.zeros_like(vectors), where=norms > 0)


@checked
def keyword_tokens(texts: list[str]) -> list[list[str]]:
    """What BM25 reads of each text: lower-cased words of two or more characters, English stop words
    left out (bm25s's tokenizer, no stemming)."""
    return bm25s.tokenize(texts, stopwords="en", return_ids=False, show_progress=False)


class SearchIndex:
    """A corpus searchable both ways: its pages' vectors (dense) and a BM25 index (keywords).

    `vectors` are the pages' unit vectors, one row each, in the order of `ids` (from `embed`)."""

    def __init__(self, ids: list[str], texts: list[str], vectors: np.ndarray):
        require_list_of_text("ids", ids)
        require_list_of_text("texts", texts)
        require_instance("vectors", vectors, np.ndarray, "a numpy array of unit rows (from embed)")
        if vectors.ndim != 2:
            raise ValueError(
                f"vectors must have one row per page (2 dimensions), got {vectors.ndim}."
            )
        if not len(ids) == len(texts) == len(vectors):
            raise ValueError(
                f"ids, texts and vectors must be as long as each other, got {len(ids)}, "
                f"{len(texts)} and {len(vectors)}."
            )
        self.ids, self.texts, self.vectors = list(ids), list(texts), vectors
        self.row = {doc: i for i, doc in enumerate(self.ids)}
        self.bm25 = bm25s.BM25()
        self.bm25.index(
            bm25s.tokenize(self.texts, stopwords="en", show_progress=False), show_progress=False
        )

    def dense(self, query: np.ndarray, k: int) -> list[str]:
        """The ids of the k pages nearest `query` by cosine, nearest first (ties: the earlier
        page)."""
        scores = self.vectors @ query
        return [self.ids[i] for i in np.argsort(-scores, kind="stable")[:k]]

    def keyword(self, question: str, k: int) -> list[str]:
        """The ids of the k best pages for `question` by BM25, best first; a page that shares no
        word with the question is left out (bm25s would fill the list with them at score 0)."""
        found, scores = self.bm25.retrieve(
            keyword_tokens.unchecked([question]), k=min(k, len(self.ids)), show_progress=False
        )
        return [self.ids[i] for i, score in zip(found[0], scores[0]) if score > 0]

    def cosine(self, query: np.ndarray, ids: list[str]) -> list[float]:
        """The cosine of each page of `ids` with `query` (the score the threshold applies to)."""
        return [float(self.vectors[self.row[doc]] @ query) for doc in ids]

    def text(self, doc: str) -> str:
        return self.texts[self.row[doc]]


@dataclass(frozen=True)
class Knobs:
    """The pipeline's settings (the article's by default)."""

    dense_k: int = DENSE_K
    keyword_k: int = KEYWORD_K
    threshold: float = THRESHOLD
    budget: int = BUDGET

    def __post_init__(self):
        # any floor on a cosine: below -1 it keeps every page ranked, above 1 it sends nothing
        require_fields(self, dense_k=(1, None), keyword_k=(1, None), threshold=(-math.inf, None))


@dataclass(frozen=True)
class Retrieved:
    """What each stage of the pipeline found for one question, and what was sent."""

    dense: list[str]
    keyword: list[str]
    fused: list[str]
    sent: list[str]
    tokens: int


@checked
def hybrid_search(
    index: SearchIndex,
    question: str,
    query: np.ndarray,
    knobs: Knobs = Knobs(),
    fuse: Callable = reciprocal_rank_fusion,
    fill: Callable = fill_budget,
) -> Retrieved:
    """Dense and keyword search side by side, fused (`fuse`), gated by the threshold on the dense
    cosine and fitted into the budget (`fill`), in the fused order."""
    dense, keyword = index.dense(query, knobs.dense_k), index.keyword(question, knobs.keyword_k)
    fused = fuse([dense, keyword])
    scored = [
        (doc, index.text(doc), score) for doc, score in zip(fused, index.cosine(query, fused))
    ]
    sent, tokens = fill(scored, knobs.budget, approx_tokens, knobs.threshold)
    return Retrieved(dense, keyword, fused, sent, tokens)


@checked
def needle_recall(
    index: SearchIndex,
    needles: list[Needle],
    queries: np.ndarray,
    knobs: Knobs = Knobs(),
    fuse: Callable = reciprocal_rank_fusion,
    fill: Callable = fill_budget,
) -> dict:
    """For `needles` (the wiki's, each with its `.page` and `.question`) and their query vectors: the share found by
    dense search alone, BM25 alone, the fused top FUSED_TOP and the pipeline (what it sends), and
    the mean tokens sent per question."""
    found = {"dense": 0, "bm25": 0, "fused top 5": 0, "sent": 0}
    tokens = 0
    for needle, query in zip(needles, queries):
        got = hybrid_search.unchecked(index, needle.question, query, knobs, fuse, fill)
        for name, ids in (
            ("dense", got.dense),
            ("bm25", got.keyword),
            ("fused top 5", got.fused[:FUSED_TOP]),
            ("sent", got.sent),
        ):
            found[name] += needle.page in ids
        tokens += got.tokens
    count = max(len(needles), 1)
    return {name: hits / count for name, hits in found.items()} | {"tokens": tokens / count}

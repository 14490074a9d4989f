"""Lesson 12's pipeline on the glass box: embedding through the SDK, 100 texts a call, both
searches, the gate and the budget, the wiki's needles, and the panel's data."""

import numpy as np
import pytest

from harness.engine.embeddings import MAX_BATCH
from harness.retrieval import (
    Knobs,
    SearchIndex,
    embed,
    fill_budget,
    hybrid_search,
    reciprocal_rank_fusion,
)
from harness.scenarios.wiki import SIZES, make_wiki
from harness.widgets.lesson12 import STAGES, rows_for, traces_of


class Counting:
    """A client whose embed_content calls are counted on their way to the glass box."""

    def __init__(self, client):
        self.calls, self._client = [], client
        self.models = self

    def embed_content(self, **kwargs):
        self.calls.append(len(kwargs["contents"]))
        return self._client.models.embed_content(**kwargs)


@pytest.fixture(scope="module")
def wiki():
    return make_wiki()


@pytest.fixture(scope="module")
def embedded(wiki):
    """The wiki's vectors and the needles' queries, embedded once, on the glass box."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("WORKBOOK_OFFLINE", "1")
        from harness.plumbing.client import connect

        client = connect()
        vectors = embed(client, wiki.texts, "RETRIEVAL_DOCUMENT")
        probes = wiki.needles + wiki.paraphrases
        return vectors, embed(client, [p.question for p in probes], "RETRIEVAL_QUERY")


def test_embed_sends_at_most_100_texts_a_call_and_returns_unit_rows(glass_box):
    client = Counting(glass_box)
    vectors = embed(
        client,
        [f"service number {i} runs at night" for i in range(2 * MAX_BATCH + 1)],
        "RETRIEVAL_DOCUMENT",
        64,
    )
    assert client.calls == [MAX_BATCH, MAX_BATCH, 1]
    assert vectors.shape == (2 * MAX_BATCH + 1, 64)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_the_wiki_is_deterministic_and_its_needles_are_in_its_smallest_size(wiki):
    again = make_wiki.__wrapped__()
    assert again == wiki
    first = set(wiki.prefix(SIZES[0]).ids)
    assert {n.page for n in wiki.needles + wiki.paraphrases} <= first
    assert [len(wiki.prefix(size).pages) for size in SIZES] == sorted(
        len(wiki.prefix(size).pages) for size in SIZES
    )
    assert len(set(wiki.ids)) == len(wiki.ids)


def test_page_ids_say_nothing_of_which_page_is_a_needle(wiki):
    needles = {n.page for n in wiki.needles + wiki.paraphrases}
    order = sorted(wiki.ids)
    ranks = [order.index(page) for page in needles]  # where the needles fall in id order
    assert min(ranks) < len(order) / 4 and max(ranks) > 3 * len(order) / 4


def test_keyword_search_leaves_out_pages_that_share_no_word(embedded, wiki):
    index = SearchIndex(wiki.ids[:20], wiki.texts[:20], embedded[0][:20])
    assert index.keyword("zzzz qqqq", 10) == []
    assert len(index.keyword("port", 100)) <= 20


def test_search_index_refuses_lists_of_different_lengths(embedded, wiki):
    with pytest.raises(ValueError, match="as long as each other"):
        SearchIndex(wiki.ids[:3], wiki.texts[:2], embedded[0][:3])


def test_the_threshold_gates_by_the_dense_cosine_in_the_fused_order(embedded, wiki):
    vectors, queries = embedded
    index = SearchIndex(wiki.ids, wiki.texts, vectors)
    needle, query = wiki.needles[0], queries[0]
    open_gate = hybrid_search(index, needle.question, query, Knobs(threshold=-1.0))
    shut = hybrid_search(index, needle.question, query, Knobs(threshold=1.01))
    assert shut.sent == [] and shut.tokens == 0
    assert open_gate.sent == [d for d in open_gate.fused if d in open_gate.sent]
    cosines = dict(zip(open_gate.fused, index.cosine(query, open_gate.fused)))
    gated = hybrid_search(index, needle.question, query, Knobs(threshold=0.3))
    assert all(cosines[d] >= 0.3 for d in gated.sent)


def test_the_panel_s_rows_and_traces(embedded, wiki):
    vectors, queries = embedded
    index = SearchIndex(wiki.ids, wiki.texts, vectors)
    rows = rows_for(index, wiki, queries, Knobs(), reciprocal_rank_fusion, fill_budget)
    assert [row["kind"] for row in rows] == ["code name", "paraphrase"]
    traces = traces_of(rows)
    assert len(traces) == len(STAGES) + 1
    assert traces[-1]["y"] == [row["tokens"] for row in rows]
    assert all(0 <= y <= 100 for trace in traces[:-1] for y in trace["y"])

"""The glass box holds Gemini's input limits on every batch endpoint, and bounds what it stores.

Issue 29, point 4: the OpenAI-compatible embeddings endpoint took 10,000 inputs (2.2 GB, no answer
in 120 s) where batchEmbedContents refuses more than 100; a stored interaction kept about 7 MB per 3
MB sent, 1,000 of them; explicit caches had no count limit. Each bound below is either Gemini's (its
source beside it in the engine) or the glass box's own, said so there.
"""

import json
import time

import pytest

from harness.engine import cache, interactions
from harness.engine.bounded import Bounded
from harness.engine.embeddings import MAX_BATCH
from harness.engine.server import glass_box

MODEL = "gemini-3.8-flash"


def _post(path: str, body) -> tuple[int, object]:
    status, _, answer, *_ = glass_box("POST", path, "", json.dumps(body).encode())
    return status, json.loads(answer)


@pytest.mark.parametrize("count, status", [(MAX_BATCH, 200), (MAX_BATCH + 1, 400), (10_000, 400)])
def test_openai_embeddings_take_at_most_a_batch_of_inputs(count, status):
    answer = _post(
        "/v1beta/openai/embeddings", {"model": "gemini-embedding-001", "input": ["a"] * count}
    )
    assert answer[0] == status
    if status == 400:
        assert f"at most {MAX_BATCH} inputs" in answer[1][0]["error"]["message"]


def test_batch_embed_contents_takes_at_most_a_batch_of_requests():
    one = {"model": "models/gemini-embedding-001", "content": {"parts": [{"text": "a"}]}}
    status, answer = _post(
        "/v1beta/models/gemini-embedding-001:batchEmbedContents",
        {"requests": [one] * (MAX_BATCH + 1)},
    )
    assert status == 400 and f"at most {MAX_BATCH} requests" in answer["error"]["message"]


def test_a_bounded_store_drops_the_oldest_first_and_keeps_the_newest():
    store = Bounded(max_entries=3, max_bytes=1_000)
    for name in "abc":
        store.put(name, name, 100)
    assert store.put("d", "d", 100) == ["a"]  # over the count
    assert store.put("e", "e", 950) == ["b", "c", "d"]  # over the bytes
    assert store.keys() == ["e"] and store.bytes == 950
    assert store.put("f", "f", 5_000) == ["e"] and store.get("f") == "f"  # alone over: kept


def test_stored_interactions_are_bounded_in_bytes_and_a_dropped_id_is_not_found(monkeypatch):
    monkeypatch.setattr(interactions, "MAX_STORED_BYTES", 500_000)
    store = interactions.Interactions()
    answer = {
        "candidates": [{"content": {"role": "model", "parts": [{"text": "ok"}]}}],
        "modelVersion": MODEL,
        "usageMetadata": {"promptTokenCount": 1, "totalTokenCount": 1},
    }
    made = [
        store.create({"model": MODEL, "input": "x" * 100_000}, "v1", lambda *a: answer)["id"]
        for _ in range(5)
    ]
    assert store._stored.bytes <= 500_000 and len(store._stored) == 2  # 200 kB charged each
    store.get(made[-1])
    with pytest.raises(interactions.WireError) as dropped:
        store.get(made[0])
    assert dropped.value.code == 404 and "keeps the newest" in dropped.value.message


def test_explicit_caches_are_bounded_in_count_and_a_dropped_one_is_gemini_s_403(monkeypatch):
    monkeypatch.setattr(cache, "MAX_CACHES", 2)
    store = cache.CachedContentStore()
    long = {
        "model": f"models/{MODEL}",
        "contents": [
            {"role": "user", "parts": [{"text": "Rex likes long walks in the park. " * 700}]}
        ],
    }
    names = [store.create(dict(long, displayName=str(i)))["name"] for i in range(3)]
    assert [entry["name"] for entry in store.list()["cachedContents"]] == names[1:]
    with pytest.raises(cache.WireError) as dropped:
        store.get(names[0])
    assert dropped.value.code == 403 and "CachedContent not found" in dropped.value.message


def test_a_cache_takes_any_ttl_as_gemini_does():
    """The docs: "There are no minimum or maximum bounds on the TTL" (cache.py); memory is bounded
    by count and bytes instead."""
    store = cache.CachedContentStore()
    long = {
        "model": f"models/{MODEL}",
        "ttl": f"{10 * 365 * 24 * 3600}s",
        "contents": [
            {"role": "user", "parts": [{"text": "Rex likes long walks in the park. " * 700}]}
        ],
    }
    expires = int(store.create(long)["expireTime"][:4])
    assert expires - time.gmtime(store.clock()).tm_year in (9, 10)


def test_a_cache_over_the_model_s_input_limit_is_refused_when_made():
    store = cache.CachedContentStore()
    huge = {
        "model": f"models/{MODEL}",
        "contents": [{"role": "user", "parts": [{"text": "walks " * 1_100_000}]}],
    }
    with pytest.raises(cache.WireError) as refused:
        store.create(huge)
    assert (
        refused.value.code == 400
        and "exceeds the maximum number of tokens" in refused.value.message
    )
    assert store.list() == {"cachedContents": []}

"""Explicit caching through client.caches: create, use, list, extend, expire and delete."""

import time

import pytest
from google import genai
from google.genai import errors, types

from harness import MODEL
from harness.engine.cache import set_clock
from harness.engine.server import ensure_running
from harness.models import model_row
from harness.plumbing.client import OFFLINE_KEY
from harness.tokens import approx_tokens

SYSTEM = "Answer from the handbook only."


def handbook(min_tokens: int) -> str:
    """Numbered clauses, just enough of them to clear a cache minimum of `min_tokens`."""
    clauses = []
    while approx_tokens(SYSTEM) + approx_tokens("\n".join(clauses)) < min_tokens + 200:
        n = len(clauses)
        clauses.append(f"Clause {n}: orders of {n} crates ship from depot {n % 7}.")
    return "\n".join(clauses)


HANDBOOK = handbook(model_row(MODEL).implicit_cache_min)  # the models table sets the bar: follow it


def make_cache(client, model=MODEL, text=HANDBOOK, ttl="300s"):
    config = types.CreateCachedContentConfig(
        contents=[text], system_instruction=SYSTEM, ttl=ttl, display_name="handbook"
    )
    return client.caches.create(model=model, config=config)


def refused(call, *args, **kwargs) -> errors.ClientError:
    with pytest.raises(errors.ClientError) as caught:
        call(*args, **kwargs)
    return caught.value


def test_create_returns_a_cached_content_with_its_size_and_times(glass_box):
    cache = make_cache(glass_box)
    assert cache.name.startswith("cachedContents/")
    assert (cache.model, cache.display_name) == (f"models/{MODEL}", "handbook")
    assert cache.usage_metadata.total_token_count == approx_tokens(SYSTEM) + approx_tokens(HANDBOOK)
    assert (cache.expire_time - cache.create_time).total_seconds() == pytest.approx(300)


def test_a_request_on_the_cache_reads_it_and_bills_it_as_cached(glass_box):
    cache = make_cache(glass_box)
    question = "Which depot ships orders of 45 crates?"
    reply = glass_box.models.generate_content(
        model=MODEL,
        contents=question,
        config=types.GenerateContentConfig(cached_content=cache.name),
    )
    size = cache.usage_metadata.total_token_count
    assert reply.usage_metadata.cached_content_token_count == size
    assert reply.usage_metadata.prompt_token_count == size + approx_tokens(question)
    assert "Clause 45: orders of 45 crates ship from depot 3." in reply.text


def test_count_tokens_on_the_cache_counts_it_too(glass_box):
    cache = make_cache(glass_box)
    counted = glass_box._api_client.request(
        "post",
        f"models/{MODEL}:countTokens",
        {
            "generateContentRequest": {
                "model": f"models/{MODEL}",
                "cachedContent": cache.name,
                "contents": [{"role": "user", "parts": [{"text": "Hi there"}]}],
            }
        },
    )
    assert '"cachedContentTokenCount": %d' % cache.usage_metadata.total_token_count in counted.body


def test_get_list_update_and_delete(glass_box):
    cache = make_cache(glass_box)
    assert (
        glass_box.caches.get(name=cache.name).usage_metadata.total_token_count
        == cache.usage_metadata.total_token_count
    )
    assert cache.name in [listed.name for listed in glass_box.caches.list()]
    longer = glass_box.caches.update(
        name=cache.name, config=types.UpdateCachedContentConfig(ttl="3600s")
    )
    assert longer.expire_time > cache.expire_time
    glass_box.caches.delete(name=cache.name)
    error = refused(glass_box.caches.get, name=cache.name)
    assert (error.code, error.status) == (403, "PERMISSION_DENIED")
    assert cache.name not in [listed.name for listed in glass_box.caches.list()]


def test_a_cache_below_the_model_minimum_is_refused_with_the_real_message(glass_box):
    small = "\n".join(HANDBOOK.splitlines()[:10])
    error = refused(make_cache, glass_box, text=small)
    total = approx_tokens(SYSTEM) + approx_tokens(small)
    assert (error.code, error.message) == (
        400,
        (
            f"Cached content is too small. total_token_count={total},"
            f" min_total_token_count={model_row(MODEL).implicit_cache_min}"
        ),
    )


# 2.5 Pro's minimum in harness/models.py
def test_pro_needs_2048_tokens_to_cache(legacy_models, glass_box):
    medium = "\n".join(HANDBOOK.splitlines()[:80])
    assert 1024 <= approx_tokens(SYSTEM) + approx_tokens(medium) < 2048
    make_cache(glass_box, model="gemini-3-flash-preview", text=medium)  # its minimum is 1,024
    assert (
        "min_total_token_count=2048"
        in refused(make_cache, glass_box, model="gemini-2.5-pro", text=medium).message
    )


def test_system_instruction_or_tools_beside_a_cache_are_refused(glass_box):
    cache = make_cache(glass_box)
    for config in (
        types.GenerateContentConfig(cached_content=cache.name, system_instruction="Be brief."),
        types.GenerateContentConfig(
            cached_content=cache.name,
            tools=[
                types.Tool(
                    function_declarations=[types.FunctionDeclaration(name="f", description="g")]
                )
            ],
        ),
    ):
        error = refused(
            glass_box.models.generate_content, model=MODEL, contents="Hi", config=config
        )
        assert error.code == 400
        assert error.message.startswith(
            "CachedContent can not be used with GenerateContent request setting "
            "system_instruction, tools or tool_config."
        )


def test_a_cache_serves_only_its_own_model(legacy_models, glass_box):
    cache = make_cache(glass_box)
    error = refused(
        glass_box.models.generate_content,
        model="gemini-2.5-flash-lite",
        contents="Hi",
        config=types.GenerateContentConfig(cached_content=cache.name),
    )
    assert error.code == 400 and "has to be the same" in error.message


def test_an_expired_cache_is_gone(glass_box):
    cache = make_cache(glass_box, ttl="60s")
    set_clock(lambda: time.time() + 61)
    error = refused(
        glass_box.models.generate_content,
        model=MODEL,
        contents="Hi",
        config=types.GenerateContentConfig(cached_content=cache.name),
    )
    assert (error.code, error.message) == (403, "CachedContent not found (or permission denied)")
    set_clock()
    assert refused(glass_box.caches.get, name=cache.name).code == 403  # expiry deleted it for good


def test_caches_work_on_the_v1_path_too(glass_box):
    v1 = genai.Client(
        api_key=OFFLINE_KEY,
        vertexai=False,
        http_options=types.HttpOptions(base_url=ensure_running(), api_version="v1"),
    )
    cache = make_cache(v1)
    assert v1.caches.get(name=cache.name).name == cache.name

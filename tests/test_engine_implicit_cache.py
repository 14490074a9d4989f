"""The implicit prefix cache: what a request shares with an earlier one, from its first block on."""

from google.genai import types

from harness import MODEL
from harness.engine.cache import PrefixCache, blocks_of, reset_cache
from harness.tokens import approx_tokens

RULES = [
    f"Rule {n}: an invoice line with {n} units at {n}.50 euros is billed in full."
    for n in range(240)
]
SYSTEM = "\n".join(RULES)  # about 5,500 tokens: above every model's minimum (4,096 at most)


def ask(client, system, turns, model=MODEL):
    contents = [
        types.Content(role="user" if i % 2 == 0 else "model", parts=[types.Part.from_text(text=t)])
        for i, t in enumerate(turns)
    ]
    config = types.GenerateContentConfig(system_instruction=system)
    return _usage(client.models.generate_content(model=model, contents=contents, config=config))


def _usage(reply):
    usage = reply.usage_metadata
    return usage.prompt_token_count, usage.cached_content_token_count or 0


def test_the_first_request_is_cold_and_the_same_request_again_is_all_cached(glass_box):
    prompt, cached = ask(glass_box, SYSTEM, ["What is rule 7?"])
    assert cached == 0
    assert ask(glass_box, SYSTEM, ["What is rule 7?"]) == (prompt, prompt)


def test_appending_turns_keeps_the_whole_earlier_request_cached(glass_box):
    first_prompt, _ = ask(glass_box, SYSTEM, ["What is rule 7?"])
    prompt, cached = ask(glass_box, SYSTEM, ["What is rule 7?", "Rule 7 says so.", "And rule 8?"])
    assert cached == first_prompt
    assert prompt == first_prompt + approx_tokens("Rule 7 says so.") + approx_tokens("And rule 8?")


def test_changing_the_first_system_line_loses_the_whole_cache(glass_box):
    ask(glass_box, SYSTEM, ["What is rule 7?"])
    stamped = "Today is 2026-03-01 10:42.\n" + SYSTEM  # the classic mistake: a timestamp up front
    assert ask(glass_box, stamped, ["What is rule 7?"])[1] == 0


def test_changing_a_late_line_keeps_what_comes_before_it(glass_box):
    ask(glass_box, SYSTEM, ["What is rule 7?"])
    edited = RULES[:220] + ["Rule 220: changed."] + RULES[221:]
    _, cached = ask(glass_box, "\n".join(edited), ["What is rule 7?"])
    assert cached == approx_tokens("\n".join(RULES[:220]))


def test_a_shared_prefix_below_the_model_minimum_is_not_cached(glass_box):
    short = "\n".join(RULES[:10])  # about 200 tokens
    ask(glass_box, short, ["What is rule 7?"])
    assert ask(glass_box, short, ["What is rule 7?"])[1] == 0


def test_pro_needs_a_longer_prefix_than_flash(legacy_models, glass_box):
    middle = "\n".join(RULES[:70])  # between 1,024 and 2,048 tokens
    assert 1024 <= approx_tokens(middle) < 2048
    # minimums 1,024 and 2,048 (harness/models.py)
    for model in (
        "gemini-3-flash-preview",
        "gemini-2.5-pro",
    ):
        ask(glass_box, middle, ["Hi"], model=model)
    assert ask(glass_box, middle, ["Hi"], model="gemini-3-flash-preview")[1] > 0
    assert ask(glass_box, middle, ["Hi"], model="gemini-2.5-pro")[1] == 0


def test_each_model_has_its_own_cache(legacy_models, glass_box):
    ask(glass_box, SYSTEM, ["Hi"], model="gemini-2.5-flash")
    assert ask(glass_box, SYSTEM, ["Hi"], model="gemini-2.5-flash-lite")[1] == 0


def test_count_tokens_does_not_warm_the_cache(glass_box):
    contents = [SYSTEM, "What is rule 7?"]
    glass_box.models.count_tokens(model=MODEL, contents=contents)
    reply = glass_box.models.generate_content(model=MODEL, contents=contents)
    assert not reply.usage_metadata.cached_content_token_count


def test_reset_cache_makes_the_next_call_cold(glass_box):
    ask(glass_box, SYSTEM, ["Hi"])
    reset_cache()
    assert ask(glass_box, SYSTEM, ["Hi"])[1] == 0


def test_the_cache_forgets_requests_older_than_its_bound():
    cache = PrefixCache(max_requests=3)
    cache.lookup_and_record("m", blocks_of("kept line\nfirst"), minimum=0)
    for n in range(3):
        cache.lookup_and_record("m", blocks_of(f"other {n}"), minimum=0)
    assert cache.lookup_and_record("m", blocks_of("kept line\nsecond"), minimum=0) == 0
    assert cache.lookup_and_record("m", blocks_of("kept line\nthird"), minimum=0) == approx_tokens(
        "kept line"
    )


def test_memory_stays_bounded_over_many_distinct_requests():
    cache = PrefixCache(max_requests=10)
    for n in range(500):
        cache.lookup_and_record("m", blocks_of(f"request {n}\nline a\nline b"), minimum=0)
    remembered = sum(len(state["seen"]) for state in cache._models.values())
    assert remembered <= 2 * 10 * 3  # at most two sweeps' worth of three-block requests

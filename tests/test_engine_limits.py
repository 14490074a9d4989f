"""Limits are real: the input token limit, maxOutputTokens, stop sequences, settings' ranges, and
models.get / models.list reporting the table's limits offline."""

import pytest
from google.genai import errors, types

from harness.models import EMBEDDING_MODELS, LATEST, MODELS, ROUTED, model_row
from harness.tokens import approx_tokens

MODEL = "gemini-3.8-flash"
QUESTION = "The office opens at 8 am and closes at 6 pm on weekdays. When does the office open?"


def ask(client, contents=QUESTION, model=MODEL, **config):
    return client.models.generate_content(
        model=model,
        contents=contents,
        config=types.GenerateContentConfig(**config) if config else None,
    )


def refusal(client, contents=QUESTION, **config) -> errors.ClientError:
    with pytest.raises(errors.ClientError) as caught:
        ask(client, contents, **config)
    return caught.value


def test_a_prompt_over_the_input_limit_is_geminis_400_with_both_numbers(glass_box):
    limit = model_row(MODEL).input_token_limit
    words = "tokens " * (limit + 10)  # "tokens" costs 2: twice the limit, and then some
    error = refusal(glass_box, words)
    assert error.code == 400 and error.status == "INVALID_ARGUMENT"
    assert (
        error.message
        == f"The input token count ({approx_tokens(words)}) exceeds the maximum number of "
        f"tokens allowed ({limit})."
    )


def test_a_prompt_at_the_limit_is_answered(glass_box):
    limit = model_row(MODEL).input_token_limit
    assert ask(
        glass_box, "cat " * limit, thinking_config=types.ThinkingConfig(thinking_level="LOW")
    ).candidates


def test_max_output_tokens_cuts_the_answer_and_says_max_tokens(glass_box):
    whole = ask(glass_box, thinking_config=types.ThinkingConfig(thinking_level="LOW"))
    full = whole.usage_metadata.candidates_token_count + whole.usage_metadata.thoughts_token_count
    cut = ask(
        glass_box,
        max_output_tokens=full - 3,
        thinking_config=types.ThinkingConfig(thinking_level="LOW"),
    )
    assert cut.candidates[0].finish_reason == types.FinishReason.MAX_TOKENS
    assert whole.text.startswith(cut.text) and len(cut.text) < len(whole.text)
    usage = cut.usage_metadata
    assert usage.candidates_token_count + usage.thoughts_token_count <= full - 3
    assert whole.candidates[0].finish_reason == types.FinishReason.STOP


def test_thoughts_spend_the_output_budget_first(glass_box):
    reply = ask(
        glass_box, max_output_tokens=5, thinking_config=types.ThinkingConfig(thinking_level="HIGH")
    )
    assert reply.candidates[0].finish_reason == types.FinishReason.MAX_TOKENS
    assert reply.usage_metadata.thoughts_token_count == 5 and reply.text is None


def test_a_stop_sequence_ends_the_answer_just_before_it(glass_box):
    whole = ask(glass_box).text
    reply = ask(glass_box, stop_sequences=["8 am"])
    assert reply.text == whole[: whole.index("8 am")]
    assert reply.candidates[0].finish_reason == types.FinishReason.STOP
    assert reply.usage_metadata.candidates_token_count == approx_tokens(reply.text)


@pytest.mark.parametrize(
    "setting, value",
    [
        ("temperature", 2.5),
        ("temperature", -0.1),
        ("top_p", 1.5),
        ("candidate_count", 9),
        ("candidate_count", 0),
        ("max_output_tokens", 0),
        ("max_output_tokens", 65_537),
    ],
)
def test_a_setting_out_of_range_is_a_400_naming_it(glass_box, setting, value):
    error = refusal(glass_box, **{setting: value})
    assert (
        error.code == 400
        and f"generation_config.{setting}" in error.message
        and str(value) in error.message
    )


def test_more_than_five_stop_sequences_is_a_400(glass_box):
    assert "stop_sequences" in refusal(glass_box, stop_sequences=list("abcdef")).message


def test_candidate_count_gives_that_many_candidates_billed_as_many_times(glass_box):
    one, three = ask(glass_box).usage_metadata, ask(glass_box, candidate_count=3)
    assert len(three.candidates) == 3
    assert three.usage_metadata.candidates_token_count == 3 * one.candidates_token_count


def test_models_get_reports_the_tables_limits(glass_box, legacy_models):
    for model_id, row in MODELS.items():
        model = glass_box.models.get(model=model_id)
        assert model.name == f"models/{model_id}"
        assert (model.input_token_limit, model.output_token_limit) == (
            row.input_token_limit,
            row.output_token_limit,
        )
        assert "generateContent" in model.supported_actions and model.display_name


def test_models_get_answers_on_v1_too(legacy_models):
    from google import genai

    from harness.engine.server import ensure_running
    from harness.plumbing.client import OFFLINE_KEY

    client = genai.Client(
        api_key=OFFLINE_KEY,
        vertexai=False,
        http_options=types.HttpOptions(
            base_url=ensure_running(),
            api_version="v1",
            retry_options=types.HttpRetryOptions(attempts=1),
        ),
    )
    assert client.models.get(model=MODEL).input_token_limit == model_row(MODEL).input_token_limit
    # v1 lists every row, routed id and embedding model, but not the `-latest` aliases (v1beta only)
    assert len(list(client.models.list())) == len(MODELS) + len(ROUTED) + len(EMBEDDING_MODELS)


def test_models_list_lists_every_model_of_the_table_across_pages(glass_box, legacy_models):
    listed = [model.name for model in glass_box.models.list(config={"page_size": 3})]
    assert listed == [
        f"models/{model_id}" for model_id in [*MODELS, *ROUTED, *EMBEDDING_MODELS, *LATEST]
    ]


def test_an_unknown_model_is_a_404_from_models_get(glass_box):
    with pytest.raises(errors.ClientError) as caught:
        glass_box.models.get(model="gemini-9-ultra")
    assert caught.value.code == 404 and "gemini-9-ultra" in caught.value.message


@pytest.mark.parametrize("field", ["presence_penalty", "frequency_penalty"])
def test_a_penalty_is_refused_on_3_5_flash_lite_and_taken_elsewhere(glass_box, field):
    with pytest.raises(errors.ClientError) as refused:
        glass_box.models.generate_content(
            model="gemini-3.5-flash-lite", contents="Hi", config={field: 0.5}
        )
    assert refused.value.code == 400 and field in refused.value.message
    assert glass_box.models.generate_content(
        model="gemini-3.8-flash", contents="Hi", config={field: 0.5}
    ).text
    assert glass_box.models.generate_content(
        model="gemini-3.5-flash-lite", contents="Hi", config={field: 0}
    ).text


def test_a_prefill_is_refused_on_3_5_flash_lite_in_both_apis(glass_box):
    prefill = [
        {"role": "user", "parts": [{"text": "Name a colour."}]},
        {"role": "model", "parts": [{"text": "It is"}]},
    ]
    with pytest.raises(errors.ClientError) as refused:
        glass_box.models.generate_content(model="gemini-3.5-flash-lite", contents=prefill)
    assert refused.value.code == 400 and "prefill" in refused.value.message
    assert glass_box.models.generate_content(model="gemini-3.8-flash", contents=prefill).text
    with pytest.raises(Exception) as refused:
        glass_box.interactions.create(
            model="gemini-3.5-flash-lite",
            input=[
                {"type": "user_input", "content": [{"type": "text", "text": "Name a colour."}]},
                {"type": "model_output", "content": [{"type": "text", "text": "It is"}]},
            ],
        )
    assert getattr(refused.value, "status_code", None) == 400 and "prefill" in str(refused.value)

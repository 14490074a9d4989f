"""Thinking costs tokens: the model's default level or the request's, by the rule stated in
harness/engine/thinking.py, counted in thoughtsTokenCount and totalTokenCount, shown only when
asked.
"""

import pytest
from google.genai import errors, types

from harness.engine.thinking import MULTIPLES
from harness.models import model_row

QUESTION = "The VAT rate is 20 percent and invoices are due in 30 days. Which VAT rate applies?"


def ask(client, model="gemini-3.8-flash", **thinking):
    config = (
        types.GenerateContentConfig(thinking_config=types.ThinkingConfig(**thinking))
        if thinking
        else None
    )
    return client.models.generate_content(model=model, contents=QUESTION, config=config)


def refusal(client, model="gemini-3.8-flash", **thinking) -> errors.ClientError:
    with pytest.raises(errors.ClientError) as caught:
        ask(client, model, **thinking)
    return caught.value


def expected(level, usage):
    return MULTIPLES[level] * usage.candidates_token_count


@pytest.mark.parametrize("level", ["LOW", "MEDIUM", "HIGH"])
def test_thought_tokens_follow_the_documented_rule_and_count_in_the_total(glass_box, level):
    usage = ask(glass_box, thinking_level=level).usage_metadata
    assert usage.thoughts_token_count == expected(level.lower(), usage) > 0
    assert (
        usage.total_token_count
        == usage.prompt_token_count + usage.candidates_token_count + usage.thoughts_token_count
    )


def test_a_higher_level_costs_more_thought_tokens_for_the_same_answer(glass_box):
    counts = [
        ask(glass_box, thinking_level=level).usage_metadata.thoughts_token_count
        for level in ("LOW", "MEDIUM", "HIGH")
    ]
    assert counts[0] < counts[1] < counts[2]


@pytest.mark.parametrize(
    "model", ["gemini-3.8-flash", "gemini-3.1-pro-preview", "gemini-2.5-flash"]
)
def test_with_nothing_asked_the_model_thinks_at_its_default_level(glass_box, legacy_models, model):
    usage = ask(glass_box, model).usage_metadata
    level = {"dynamic": "medium"}.get(
        model_row(model).default_thinking, model_row(model).default_thinking
    )
    assert usage.thoughts_token_count == expected(level, usage) > 0


def test_a_budget_caps_the_thoughts_and_zero_turns_them_off(legacy_models, glass_box):
    assert (
        ask(glass_box, "gemini-2.5-flash", thinking_budget=3).usage_metadata.thoughts_token_count
        == 3
    )
    off = ask(glass_box, "gemini-2.5-flash", thinking_budget=0).usage_metadata
    assert not off.thoughts_token_count
    assert off.total_token_count == off.prompt_token_count + off.candidates_token_count


def test_thought_parts_appear_only_when_include_thoughts_asks(glass_box):
    hidden = ask(glass_box, thinking_level="HIGH")
    assert not any(part.thought for part in hidden.candidates[0].content.parts)
    shown = ask(glass_box, thinking_level="HIGH", include_thoughts=True)
    parts = shown.candidates[0].content.parts
    assert parts[0].thought is True and not parts[-1].thought
    assert shown.text == hidden.text  # .text leaves thoughts out, as the SDK does for real
    assert shown.usage_metadata.thoughts_token_count == hidden.usage_metadata.thoughts_token_count


def test_level_and_budget_together_is_geminis_400(glass_box):
    error = refusal(glass_box, thinking_level="LOW", thinking_budget=100)
    assert (
        error.code == 400
        and error.message == "You can only set only one of thinking budget and thinking level."
    )


def test_a_level_the_model_does_not_accept_is_a_400_naming_what_it_accepts(glass_box):
    error = refusal(glass_box, thinking_level="MINIMAL")
    assert error.code == 400 and "MINIMAL" in error.message and "LOW, MEDIUM, HIGH" in error.message


def test_a_level_sent_to_a_budget_only_model_is_geminis_400(legacy_models, glass_box):
    error = refusal(glass_box, "gemini-2.5-flash", thinking_level="LOW")
    assert error.code == 400 and error.message == "Thinking level is not supported for this model."


def test_a_budget_out_of_range_is_geminis_400(legacy_models, glass_box):
    assert (
        refusal(glass_box, "gemini-2.5-flash", thinking_budget=52428).message
        == "The thinking budget (52428) is invalid."
    )

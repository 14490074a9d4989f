"""The live model set of Gemini on 2026-12-01 (harness/models.py), as a new key meets it on the
glass box."""

import pytest
from google import genai
from google.genai import errors, types

from harness.engine.server import ensure_running
from harness.models import (
    AGENTS,
    CLOSED_TO_NEW_KEYS,
    EMBEDDING_MODELS,
    INTERACTIONS_ONLY,
    LATEST,
    LEGACY_SETTING,
    MODELS,
    NOT_FOUND,
    ROUTED,
    SHUT_DOWN,
    UnknownModel,
    live_models,
    model_row,
    price_of,
)
from harness.plumbing.client import OFFLINE_KEY

FACTS_LIVE = (
    "gemini-3.8-flash",
    "gemini-3.6-flash",
    "gemini-3.5-flash-lite",
    "gemini-3.1-flash-lite",
    "gemini-3.1-pro-preview",
    "gemini-3-flash-preview",
    "gemini-4-argon",
)


def client(version: str) -> genai.Client:
    return genai.Client(
        api_key=OFFLINE_KEY,
        vertexai=False,
        http_options=types.HttpOptions(
            base_url=ensure_running(),
            api_version=version,
            retry_options=types.HttpRetryOptions(attempts=1),
        ),
    )


def refusal(glass_box, model: str) -> errors.ClientError:
    with pytest.raises(errors.ClientError) as caught:
        glass_box.models.generate_content(model=model, contents="Hello.")
    return caught.value


@pytest.mark.parametrize("model", FACTS_LIVE)
def test_every_live_model_answers_as_itself(glass_box, model):
    assert model in live_models()
    assert glass_box.models.generate_content(model=model, contents="Hello.").model_version == model


@pytest.mark.parametrize(
    "deprecated, served",
    [("gemini-3.7-flash", "gemini-3.8-flash"), ("gemini-3.5-flash", "gemini-3.6-flash")],
)
def test_a_deprecated_id_is_answered_by_the_model_it_routes_to(glass_box, deprecated, served):
    assert ROUTED[deprecated] == served
    assert (
        glass_box.models.generate_content(model=deprecated, contents="Hello.").model_version
        == served
    )
    assert model_row(deprecated).id == served  # billing prices what answered


@pytest.mark.parametrize(
    "model", ["gemini-2.5-flash", "gemini-2.5-flash-lite", "models/gemini-2.5-pro"]
)
def test_a_25_model_gives_a_new_key_geminis_404(glass_box, model, monkeypatch):
    monkeypatch.delenv(LEGACY_SETTING, raising=False)
    error = refusal(glass_box, model)
    assert (error.code, error.status) == (404, "NOT_FOUND")
    assert error.message == CLOSED_TO_NEW_KEYS.format(model=model.removeprefix("models/"))
    assert (
        error.message.startswith("This model models/gemini-2.5-")
        and "no longer available to new users" in error.message
    )


def test_a_project_that_still_has_the_25_models_sets_one_variable(glass_box, legacy_models):
    assert (
        glass_box.models.generate_content(model="gemini-2.5-flash", contents="Hi").model_version
        == "gemini-2.5-flash"
    )


def test_a_new_keys_model_list_holds_no_closed_model(glass_box, monkeypatch):
    monkeypatch.delenv(LEGACY_SETTING, raising=False)
    listed = {m.name.removeprefix("models/") for m in glass_box.models.list()}
    assert set(FACTS_LIVE) <= listed and not any(name.startswith("gemini-2.5") for name in listed)


def test_latest_aliases_answer_on_v1beta_only():
    # kept in names: a dropped client closes its connection
    beta, v1 = (
        client("v1beta"),
        client("v1"),
    )
    for alias, model in LATEST.items():
        assert beta.models.generate_content(model=alias, contents="Hi").model_version == model
        assert beta.models.get(model=alias).name == f"models/{alias}"
        with pytest.raises(errors.ClientError) as caught:
            v1.models.generate_content(model=alias, contents="Hi")
        assert caught.value.code == 404 and "for API version v1," in caught.value.message


def test_the_default_model_is_live():
    import harness

    assert model_row(harness.MODEL).open_to_new_keys and harness.MODEL in MODELS


def test_the_38_flash_introductory_price_ends_after_2026_12_31():
    assert price_of("gemini-3.8-flash", on="2026-12-31").input == 0.75
    later = price_of("gemini-3.8-flash", on="2027-01-01")
    assert (later.input, later.output) == (1.50, 7.50)
    # the table's date (2026-12-01)
    assert price_of("gemini-3.8-flash") == MODELS["gemini-3.8-flash"].price


def test_every_row_carries_a_source_and_a_date():
    for row in MODELS.values():
        assert row.source.startswith("[") and row.as_of == "2026-12-01", row.id


# A shut-down id is Gemini's plain 404, word for word (no glass-box sentence after it): the August
# 2026 cookbook's Get_started_LearnLM meets it in each of its 8 calls, as it would on Gemini.
@pytest.mark.parametrize(
    "model", ["learnlm-2.0-flash-experimental", "gemini-1.5-flash", "gemini-2.0-flash"]
)
@pytest.mark.parametrize("version", ["v1", "v1beta"])
def test_a_shut_down_model_is_geminis_plain_404_for_every_method(model, version):
    sdk = client(version)  # kept in a name: a dropped client closes its connection
    chat = sdk.chats.create(
        model=model, config=types.GenerateContentConfig(system_instruction="Tutor.")
    )
    with pytest.raises(errors.ClientError) as caught:
        chat.send_message("Help me study for a cognition test.")
    assert (caught.value.code, caught.value.status) == (404, "NOT_FOUND")
    assert caught.value.message == NOT_FOUND.format(
        model=model, version=version, method="generateContent"
    )
    with pytest.raises(errors.ClientError) as caught:
        sdk.models.count_tokens(model=model, contents="Hi")
    assert caught.value.message == NOT_FOUND.format(
        model=model, version=version, method="countTokens"
    )


def test_an_unknown_id_gets_geminis_404_then_what_the_glass_box_serves(glass_box):
    message = refusal(glass_box, "gemini-9-ultra").message
    assert message.startswith(
        NOT_FOUND.format(model="gemini-9-ultra", version="v1beta", method="generateContent")
    )
    assert "(The glass box answers for: gemini-3.8-flash," in message


def test_every_shut_down_row_names_a_live_replacement_a_day_and_a_source():
    for model, (day, replacement, source) in SHUT_DOWN.items():
        assert model not in MODELS and model not in ROUTED, model
        assert (replacement in live_models() or replacement in EMBEDDING_MODELS) and day[
            :2
        ] == "20", model
        assert "[OFF]" in source or "[3P]" in source, model
        with pytest.raises(UnknownModel, match=f"shut it down on {day}.*Use {replacement}"):
            model_row(model)


def test_models_list_holds_the_routed_ids_and_the_embedding_models_but_no_shut_down_id(glass_box):
    listed = {m.name.removeprefix("models/"): m for m in glass_box.models.list()}
    assert set(ROUTED) <= set(listed) and set(EMBEDDING_MODELS) <= set(listed)
    assert not set(SHUT_DOWN) & set(listed)
    routed = listed["gemini-3.5-flash"]
    assert routed.input_token_limit == MODELS["gemini-3.6-flash"].input_token_limit
    assert (
        "gemini-3.6-flash" in routed.description and "generateContent" in routed.supported_actions
    )


def test_the_cookbooks_list_models_cells_print_what_they_would(glass_box):
    """quickstarts/Models.ipynb cells 11 and 13 (June and August 2026), as written."""
    embedders = [m.name for m in glass_box.models.list() if "embedContent" in m.supported_actions]
    assert embedders == [f"models/{model}" for model in EMBEDDING_MODELS]
    for wanted in ("models/gemini-3.5-flash", "models/gemini-3.6-flash"):
        found = [m for m in glass_box.models.list() if m.name == wanted]
        assert len(found) == 1 and found[0].output_token_limit == 65_536


@pytest.mark.parametrize("model", EMBEDDING_MODELS)
def test_an_embedding_model_is_got_counted_and_refused_for_generation(glass_box, model):
    row = glass_box.models.get(model=model)
    assert (row.name, row.input_token_limit, row.output_token_limit) == (
        f"models/{model}",
        EMBEDDING_MODELS[model].input_token_limit,
        1,
    )
    assert (
        "embedContent" in row.supported_actions and "generateContent" not in row.supported_actions
    )
    assert (
        glass_box.models.count_tokens(model=model, contents="Water the tomato plants.").total_tokens
        > 0
    )
    error = refusal(glass_box, model)
    assert error.code == 404 and error.message == NOT_FOUND.format(
        model=model, version="v1beta", method="generateContent"
    )


def test_a_routed_pro_preview_is_answered_by_31_pro(glass_box):
    assert (
        glass_box.models.generate_content(model="gemini-3-pro-preview", contents="Hi").model_version
        == "gemini-3.1-pro-preview"
    )


@pytest.mark.parametrize("agent", AGENTS)
def test_a_hosted_agent_sent_to_generate_content_is_geminis_interactions_only_400(glass_box, agent):
    with pytest.raises(errors.ClientError) as refused:
        glass_box.models.generate_content(model=agent, contents="Research the history of tea.")
    assert refused.value.code == 400 and refused.value.message == INTERACTIONS_ONLY


def test_a_hosted_agent_sent_as_an_interactions_model_is_refused_as_an_agent(glass_box):
    with pytest.raises(Exception) as refused:
        glass_box.interactions.create(model=AGENTS[0], input="Research the history of tea.")
    assert getattr(refused.value, "status_code", None) == 400 and AGENTS[0] in str(refused.value)

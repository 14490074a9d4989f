"""The live model set of Gemini on 2026-12-01 (harness/models.py), as a new key meets it on the glass box."""
import pytest
from google import genai
from google.genai import errors, types

from harness.client import OFFLINE_KEY
from harness.engine.server import ensure_running
from harness.models import CLOSED_TO_NEW_KEYS, LATEST, LEGACY_SETTING, MODELS, ROUTED, live_models, model_row, price_of

FACTS_LIVE = ("gemini-3.8-flash", "gemini-3.6-flash", "gemini-3.5-flash-lite", "gemini-3.1-flash-lite",
              "gemini-3.1-pro-preview", "gemini-3-flash-preview", "gemini-4-argon")


def client(version: str) -> genai.Client:
    return genai.Client(api_key=OFFLINE_KEY, vertexai=False, http_options=types.HttpOptions(
        base_url=ensure_running(), api_version=version, retry_options=types.HttpRetryOptions(attempts=1)))


def refusal(glass_box, model: str) -> errors.ClientError:
    with pytest.raises(errors.ClientError) as caught:
        glass_box.models.generate_content(model=model, contents="Hello.")
    return caught.value


@pytest.mark.parametrize("model", FACTS_LIVE)
def test_every_live_model_answers_as_itself(glass_box, model):
    assert model in live_models()
    assert glass_box.models.generate_content(model=model, contents="Hello.").model_version == model


@pytest.mark.parametrize("deprecated, served", [("gemini-3.7-flash", "gemini-3.8-flash"),
                                                ("gemini-3.5-flash", "gemini-3.6-flash")])
def test_a_deprecated_id_is_answered_by_the_model_it_routes_to(glass_box, deprecated, served):
    assert ROUTED[deprecated] == served
    assert glass_box.models.generate_content(model=deprecated, contents="Hello.").model_version == served
    assert model_row(deprecated).id == served  # billing prices what answered


@pytest.mark.parametrize("model", ["gemini-2.5-flash", "gemini-2.5-flash-lite", "models/gemini-2.5-pro"])
def test_a_25_model_gives_a_new_key_geminis_404(glass_box, model, monkeypatch):
    monkeypatch.delenv(LEGACY_SETTING, raising=False)
    error = refusal(glass_box, model)
    assert (error.code, error.status) == (404, "NOT_FOUND")
    assert error.message == CLOSED_TO_NEW_KEYS.format(model=model.removeprefix("models/"))
    assert error.message.startswith("This model models/gemini-2.5-") and "no longer available to new users" in error.message


def test_a_project_that_still_has_the_25_models_sets_one_variable(glass_box, legacy_models):
    assert glass_box.models.generate_content(model="gemini-2.5-flash", contents="Hi").model_version == "gemini-2.5-flash"


def test_a_new_keys_model_list_holds_no_closed_model(glass_box, monkeypatch):
    monkeypatch.delenv(LEGACY_SETTING, raising=False)
    listed = {m.name.removeprefix("models/") for m in glass_box.models.list()}
    assert set(FACTS_LIVE) <= listed and not any(name.startswith("gemini-2.5") for name in listed)


def test_latest_aliases_answer_on_v1beta_only():
    beta, v1 = client("v1beta"), client("v1")  # kept in names: a dropped client closes its connection
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
    assert price_of("gemini-3.8-flash") == MODELS["gemini-3.8-flash"].price  # the table's date (2026-12-01)


def test_every_row_carries_a_source_and_a_date():
    for row in MODELS.values():
        assert row.source.startswith("[") and row.as_of == "2026-12-01", row.id

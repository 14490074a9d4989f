"""The glass box rejects what Gemini rejects, with Gemini's own words (FACTS.md).

The expected messages are written out here, not imported, so editing the engine's copy of a
message makes these tests fail.
"""

import pytest
from google import genai
from google.genai import errors, types

from harness import MODEL
from harness.engine.server import ensure_running
from harness.plumbing.client import OFFLINE_KEY

CALL_AFTER_USER = (
    "Please ensure that function call turn comes immediately after a user turn or "
    "after a function response turn."
)
RESPONSE_AFTER_CALL = (
    "Please ensure that function response turn comes immediately after a function call turn."
)
PARTS_MISMATCH = (
    "Please ensure that the number of function response parts is equal to the number of "
    "function call parts of the function call turn."
)
BAD_ROLE = "Please use a valid role: user, model."


def user(text):
    return types.Content(role="user", parts=[types.Part.from_text(text=text)])


def model_says(text):
    return types.Content(role="model", parts=[types.Part.from_text(text=text)])


def calls(*names):
    """A model's call turn as the model sends it: MODEL may require a thought signature on its first
    call (a documented dummy stands in for it here; tests/test_engine_signatures.py tests the rule
    itself).
    """
    parts = [types.Part.from_function_call(name=n, args={"path": "README.md"}) for n in names]
    parts[0].thought_signature = b"skip_thought_signature_validator"
    return types.Content(role="model", parts=parts)


def responses(*names):
    return types.Content(
        role="user",
        parts=[types.Part.from_function_response(name=n, response={"output": "ok"}) for n in names],
    )


def rejection(client, contents, model=MODEL) -> errors.ClientError:
    with pytest.raises(errors.ClientError) as caught:
        client.models.generate_content(model=model, contents=contents)
    return caught.value


@pytest.mark.parametrize(
    "contents, message",
    [
        ([calls("read_file")], CALL_AFTER_USER),
        (
            [user("Fix it."), model_says("Looking."), calls("read_file"), responses("read_file")],
            CALL_AFTER_USER,
        ),
        ([user("Fix it."), responses("read_file")], RESPONSE_AFTER_CALL),
        (
            [user("Fix it."), calls("read_file"), model_says("Done."), responses("read_file")],
            RESPONSE_AFTER_CALL,
        ),
        (
            [user("Fix it."), calls("read_file", "list_files"), responses("read_file")],
            PARTS_MISMATCH,
        ),
        (
            [user("Fix it."), calls("read_file"), responses("read_file", "read_file")],
            PARTS_MISMATCH,
        ),
        ([types.Content(role="assistant", parts=[types.Part.from_text(text="Hi")])], BAD_ROLE),
        (
            [
                user("Hi"),
                types.Content(role="system", parts=[types.Part.from_text(text="Be brief")]),
            ],
            BAD_ROLE,
        ),
    ],
    ids=[
        "call-first",
        "call-after-model-text",
        "response-after-user",
        "response-after-text",
        "fewer-responses",
        "more-responses",
        "role-assistant",
        "role-system",
    ],
)
def test_bad_turn_order_and_roles_get_the_real_400(glass_box, contents, message):
    error = rejection(glass_box, contents)
    assert (error.code, error.status, error.message) == (400, "INVALID_ARGUMENT", message)


def test_a_well_formed_agent_history_is_accepted(glass_box):
    history = [
        user("Fix it."),
        calls("read_file"),
        responses("read_file"),
        model_says("Now the tests."),
        user("Go on."),
        calls("read_file", "list_files"),
        responses("read_file", "list_files"),
    ]
    reply = glass_box.models.generate_content(model=MODEL, contents=history)
    assert reply.candidates[0].finish_reason == types.FinishReason.STOP


def test_an_empty_parts_list_is_a_400_naming_the_content(glass_box):
    error = rejection(glass_box, [user("Hi"), types.Content(role="model", parts=[])])
    assert error.code == 400 and "contents[1].parts" in error.message


def test_an_unknown_model_is_a_404_in_the_real_style_listing_the_known_ones(
    legacy_models, glass_box
):
    error = rejection(glass_box, "Hi", model="gemini-0.1-turbo")
    assert (error.code, error.status) == (404, "NOT_FOUND")
    assert error.message.startswith(
        "models/gemini-0.1-turbo is not found for API version v1beta, "
        "or is not supported for generateContent."
    )
    for known in (
        "gemini-2.5-flash",
        "gemini-2.5-flash-lite",
        "gemini-2.5-pro",
        "gemini-3-flash-preview",
        MODEL,
    ):
        assert known in error.message


def test_the_404_names_the_api_version_and_the_method(glass_box):
    v1 = genai.Client(
        api_key=OFFLINE_KEY,
        vertexai=False,
        http_options=types.HttpOptions(
            base_url=ensure_running(),
            api_version="v1",
            retry_options=types.HttpRetryOptions(attempts=1),
        ),
    )
    with pytest.raises(errors.ClientError) as caught:
        v1.models.count_tokens(model="gemini-0.1-turbo", contents="Hi")
    assert "for API version v1, or is not supported for countTokens" in caught.value.message


@pytest.mark.parametrize(
    "model",
    [
        "gemini-2.5-flash",
        "models/gemini-2.5-flash",
        "gemini-2.5-pro",
        "gemini-2.5-flash-lite",
        "gemini-3-flash-preview",
        MODEL,
    ],
)
def test_known_models_answer_with_or_without_the_models_prefix(glass_box, legacy_models, model):
    reply = glass_box.models.generate_content(model=model, contents="Hello.")
    assert reply.model_version == model.removeprefix("models/")

"""Service tiers (harness/engine/compat/tiers.py): the tier asked in the request, the tier that
served it in Gemini's `x-gemini-service-tier` header and in usageMetadata, as the cookbook's
Inference_tiers reads it.
"""

import pytest
from google.genai import errors

from harness.engine.compat.tiers import HEADER

QUESTION = "Why is the sky blue?"


@pytest.mark.parametrize(
    "asked, served",
    [
        ("priority", "priority"),
        ("flex", "flex"),
        ("standard", "standard"),
        (None, "standard"),
        ("SERVICE_TIER_PRIORITY", "priority"),
    ],
)
# the SDK warns at the proto spelling, then sends it as written
@pytest.mark.filterwarnings("ignore::UserWarning")
def test_the_header_names_the_tier_that_served_the_call(glass_box, asked, served):
    reply = glass_box.models.generate_content(
        model="gemini-3.5-flash",
        contents=QUESTION,
        config={"service_tier": asked} if asked else None,
    )
    assert reply.sdk_http_response.headers.get(HEADER) == served
    assert reply.text  # the answer itself is the same whatever the tier


def test_a_stream_says_its_tier_too(glass_box, post_json):
    stream = glass_box.models.generate_content_stream(
        model="gemini-3.8-flash",
        contents="List 5 ideas for a film.",
        config={"service_tier": "flex"},
    )
    assert [chunk.sdk_http_response.headers.get(HEADER) for chunk in stream][-1] == "flex"


def test_usage_metadata_carries_the_tier_on_the_wire(post_json):
    status, body = post_json(
        "/v1beta/models/gemini-3.8-flash:generateContent",
        {"contents": [{"parts": [{"text": QUESTION}]}], "service_tier": "priority"},
    )
    assert status == 200 and body["usageMetadata"]["serviceTier"] == "priority"


def test_a_tier_gemini_does_not_have_is_the_parsers_400(glass_box):
    with pytest.warns(UserWarning):  # the SDK warns, then sends it as written
        with pytest.raises(errors.ClientError) as caught:
            glass_box.models.generate_content(
                model="gemini-3.8-flash", contents=QUESTION, config={"service_tier": "sometimes"}
            )
    assert (
        caught.value.code == 400
        and "service_tier" in caught.value.message
        and "sometimes" in caught.value.message
    )


@pytest.mark.parametrize(
    "asked, served", [("priority", "priority"), ("flex", "flex"), (None, "standard")]
)
def test_an_interaction_names_the_tier_that_served_it(glass_box, asked, served):
    created = glass_box.interactions.create(
        model="gemini-3.8-flash", input=QUESTION, **({"service_tier": asked} if asked else {})
    )
    assert created.service_tier == served
    # kept with the stored interaction
    assert glass_box.interactions.get(created.id).service_tier == served


@pytest.mark.parametrize(
    "asked, words", [("deferred", "Agent Platform"), ("cheap", "service_tier")]
)
def test_an_interaction_refuses_a_tier_the_developer_api_does_not_serve(glass_box, asked, words):
    with pytest.raises(Exception) as refused:
        glass_box.interactions.create(model="gemini-3.8-flash", input=QUESTION, service_tier=asked)
    assert getattr(refused.value, "status_code", None) == 400 and words in str(refused.value)

"""Safety on the glass box: settings are checked as Gemini checks them, and an answer let through
carries no safety ratings, as Gemini's answers do (harness/engine/server.py, the note in
`generate`)."""

import pytest
from google.genai import types

PROMPT = (
    "I support Martians Soccer Club and I think Jupiterians Football Club sucks! Write an ironic"
    " phrase."
)
STRICT = [
    types.SafetySetting(category=category, threshold=types.HarmBlockThreshold.BLOCK_LOW_AND_ABOVE)
    for category in (
        types.HarmCategory.HARM_CATEGORY_HATE_SPEECH,
        types.HarmCategory.HARM_CATEGORY_HARASSMENT,
        types.HarmCategory.HARM_CATEGORY_SEXUALLY_EXPLICIT,
        types.HarmCategory.HARM_CATEGORY_DANGEROUS_CONTENT,
    )
]


@pytest.mark.parametrize("settings", [None, STRICT])
def test_an_answer_let_through_has_no_safety_ratings_nor_prompt_feedback(
    glass_box, post_json, settings
):
    reply = glass_box.models.generate_content(
        model="gemini-3.8-flash",
        contents=PROMPT,
        config=types.GenerateContentConfig(safety_settings=settings),
    )
    assert reply.candidates[0].finish_reason == types.FinishReason.STOP and reply.text
    assert reply.candidates[0].safety_ratings is None and reply.prompt_feedback is None
    status, body = post_json(
        "/v1beta/models/gemini-3.8-flash:generateContent",
        {"contents": [{"parts": [{"text": PROMPT}]}]},
    )
    assert (
        status == 200
        and "promptFeedback" not in body
        and "safetyRatings" not in body["candidates"][0]
    )


def test_a_threshold_gemini_does_not_have_is_still_a_400(post_json):
    status, body = post_json(
        "/v1beta/models/gemini-3.8-flash:generateContent",
        {
            "contents": [{"parts": [{"text": PROMPT}]}],
            "safetySettings": [{"category": "HARM_CATEGORY_HARASSMENT", "threshold": "BLOCK_SOME"}],
        },
    )
    assert status == 400 and "BLOCK_SOME" in body["error"]["message"]

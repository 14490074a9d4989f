"""The Interactions API's refusals on the glass box: hosted agents, its own error shape, unknown
ids, and what the SDK itself refuses before any request leaves the machine."""

import pydantic
import pytest
from google import genai
from google.genai import types

from harness import MODEL
from harness.engine.interaction_input import NO_INPUT

CINEMA = [
    {
        "type": "function",
        "name": "find_theaters",
        "description": "Find theaters based on location and movie title.",
        "parameters": {
            "type": "object",
            "properties": {"location": {"type": "string"}, "movie": {"type": "string"}},
            "required": ["location", "movie"],
        },
    }
]


@pytest.mark.parametrize(
    "agent",
    [
        "deep-research-pro-preview-12-2025",
        "deep-research-max-preview-04-2026",
        "antigravity-preview-09-2026",
        "my-own-agent",
    ],
)
def test_an_agent_interaction_is_refused_naming_the_agent(glass_box, agent):
    with pytest.raises(Exception) as caught:
        glass_box.interactions.create(
            agent=agent,
            input="Research the history of the Google TPUs.",
            background=True,
            agent_config={"type": "deep-research", "thinking_summaries": "auto"},
        )
    error = caught.value
    assert error.status_code == 400 and error.body["error"]["code"] == "invalid_request"
    assert (
        agent in error.body["error"]["message"] and "cannot run" in error.body["error"]["message"]
    )


def test_an_agent_is_refused_before_its_input_or_store_is_looked_at(post_json):
    status, body = post_json(
        "/v1beta/interactions",
        {
            "agent": "deep-research-pro-preview-12-2025",
            "store": False,
            "background": True,
            "previous_interaction_id": "v1_gone",
        },
    )
    assert status == 400 and "deep-research-pro-preview-12-2025" in body["error"]["message"]


def test_errors_come_in_the_interactions_shape_and_generate_content_keeps_googles(
    glass_box, post_json
):
    status, body = post_json("/v1beta/interactions", {"model": MODEL})
    assert status == 400 and body == {"error": {"message": NO_INPUT, "code": "invalid_request"}}
    status, body = post_json(
        "/v1/interactions", {"model": MODEL, "input": "Hi", "previous_interaction_id": "v1_nope"}
    )
    assert (
        status == 404
        and body["error"]["code"] == "not_found"
        and "v1_nope" in body["error"]["message"]
    )
    status, body = post_json(f"/v1beta/models/{MODEL}:generateContent", {"contents": []})
    assert (
        status == 400
        and body["error"]["code"] == 400
        and body["error"]["status"] == "INVALID_ARGUMENT"
    )


def test_delete_of_an_unknown_id_is_a_404_in_the_interactions_shape(glass_box):
    with pytest.raises(Exception) as caught:
        glass_box.interactions.delete("v1_never_made")
    assert caught.value.status_code == 404 and caught.value.body["error"]["code"] == "not_found"


def test_the_sdk_refuses_one_function_result_not_in_a_list_before_sending_it():
    """August Function_calling cell 37 passes `input={"type": "function_result", ...}`: the SDK's
    own validation refuses it (a step must come in a list), so real Gemini never sees it either."""
    nowhere = genai.Client(
        api_key="offline",
        http_options=types.HttpOptions(
            base_url="http://127.0.0.1:9", retry_options=types.HttpRetryOptions(attempts=1)
        ),
    )
    result = {
        "type": "function_result",
        "name": "find_theaters",
        "call_id": "call_1",
        "result": "['Googleplex 16']",
    }
    with pytest.raises(pydantic.ValidationError, match="function_result"):
        nowhere.interactions.create(model=MODEL, previous_interaction_id="v1_any", input=result)


def test_the_same_function_result_in_a_list_ends_the_turn_with_the_result(glass_box):
    asked = glass_box.interactions.create(
        model=MODEL,
        tools=CINEMA,
        input="Which theaters in Mountain View, CA show the Barbie movie?",
    )
    call = next(s for s in asked.steps if s.type == "function_call")
    assert call.name == "find_theaters"
    answered = glass_box.interactions.create(
        model=MODEL,
        previous_interaction_id=asked.id,
        tools=CINEMA,
        input=[
            {
                "type": "function_result",
                "name": call.name,
                "call_id": call.id,
                "result": "['Googleplex 16']",
            }
        ],
    )
    assert answered.status == "completed" and "Googleplex 16" in answered.steps[-1].content[0].text


def test_cancel_returns_a_finished_background_interaction_as_it_is_and_404s_an_unknown_id(
    glass_box,
):
    made = glass_box.interactions.create(
        model=MODEL, input="Write a haiku about tea.", background=True
    )
    # the glass box answers before it replies: polling ends at once
    assert made.status == "completed"
    cancelled = glass_box.interactions.cancel(made.id)
    assert (cancelled.id, cancelled.status) == (made.id, "completed")
    with pytest.raises(Exception) as caught:
        glass_box.interactions.cancel("v1_never_made")
    assert caught.value.status_code == 404 and caught.value.body["error"]["code"] == "not_found"


@pytest.mark.parametrize(
    "extra, named",
    [
        ({"tools": [{"name": "f"}]}, "type"),
        ({"tools": [{"type": "function"}]}, "name"),
        ({"tools": "x"}, "tools"),
        (
            {"tools": [{"type": "mcp_server", "name": "docs", "url": "https://example.com/mcp"}]},
            "mcp_server",
        ),
        ({"input": [{"role": "user"}]}, "content"),
        ({"input": [{"role": "system", "content": "x"}]}, "role"),
        ({"input": {"type": "text", "text": 5}}, "text"),
        ({"generation_config": "x"}, "generation_config"),
        ({"generation_config": {"tool_choice": 5}}, "tool_choice"),
        ({"response_format": "x"}, "response_format"),
        ({"store": "yes"}, "store"),
        ({"system_instruction": 7}, "system_instruction"),
        ({"model": 3}, "model"),
        ({"previous_interaction_id": 5}, "previous_interaction_id"),
        ({"background": "no"}, "background"),
    ],
)
def test_a_malformed_create_is_a_400_naming_what_was_wrong_never_a_500(post_json, extra, named):
    status, body = post_json(
        "/v1beta/interactions", dict({"model": MODEL, "input": "Hello"}, **extra)
    )
    assert (
        status == 400
        and body["error"]["code"] == "invalid_request"
        and named in body["error"]["message"]
    )


def test_a_request_with_no_key_is_refused_in_the_interactions_shape():
    """The 403 for a missing key is raised before any route: on /interactions it still takes that
    API's shape."""
    import json
    import urllib.error
    import urllib.request

    from harness.engine.server import ensure_running

    request = urllib.request.Request(
        ensure_running() + "/v1beta/interactions",
        json.dumps({"model": "gemini-3.8-flash", "input": "Hi"}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request)
    body = json.loads(refused.value.read())
    assert refused.value.code == 403 and set(body["error"]) == {"message", "code"}
    assert body["error"]["message"].startswith("Method doesn't allow unregistered callers")

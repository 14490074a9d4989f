"""Gemini's built-in tools (search, code execution, URL context) on every surface of the glass
box: a 400 naming the tool, never a request accepted and answered as if the tool had run."""

import pytest
from google.genai import errors, types

from harness import MODEL

BUILT_IN = {
    "google_search": types.Tool(google_search=types.GoogleSearch()),
    "code_execution": types.Tool(code_execution=types.ToolCodeExecution()),
    "url_context": types.Tool(url_context=types.UrlContext()),
}


@pytest.mark.parametrize("name", BUILT_IN)
def test_a_stream_refuses_a_built_in_tool_by_name(glass_box, name):
    config = types.GenerateContentConfig(tools=[BUILT_IN[name]])
    with pytest.raises(errors.ClientError) as caught:
        list(
            glass_box.models.generate_content_stream(
                model=MODEL, contents="Who won the final?", config=config
            )
        )
    assert caught.value.code == 400 and f"built-in tool {name}" in caught.value.message


@pytest.mark.parametrize("name", BUILT_IN)
def test_an_explicit_cache_refuses_a_built_in_tool_when_created(glass_box, name):
    contents = [types.Content(role="user", parts=[types.Part(text="word " * 5000)])]
    with pytest.raises(errors.ClientError) as caught:
        glass_box.caches.create(
            model=MODEL,
            config=types.CreateCachedContentConfig(
                contents=contents, tools=[BUILT_IN[name]], ttl="60s"
            ),
        )
    assert caught.value.code == 400 and name in caught.value.message


@pytest.mark.parametrize("name", BUILT_IN)
def test_the_interactions_api_refuses_a_built_in_tool_by_name(glass_box, name, post_json):
    status, body = post_json(
        "/v1beta/interactions", {"model": MODEL, "input": "Who won?", "tools": [{"type": name}]}
    )
    assert status == 400 and name in body["error"]["message"]


@pytest.mark.parametrize(
    "tool",
    [
        {"type": "google_search"},
        {"google_search": {}},
        {"type": "code_execution"},
        {"type": "url_context"},
    ],
)
def test_the_openai_endpoint_refuses_a_built_in_tool_by_name(glass_box, tool, post_json):
    status, body = post_json(
        "/v1beta/openai/chat/completions",
        {"model": MODEL, "messages": [{"role": "user", "content": "Who won?"}], "tools": [tool]},
    )
    name = tool.get("type") or next(iter(tool))
    assert status == 400 and name in body[0]["error"]["message"]

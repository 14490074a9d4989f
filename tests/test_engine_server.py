"""The glass-box server: started once, fast enough to forget, quiet, and on both API versions."""

import json
import threading
import urllib.error
import urllib.request

import pytest
from google import genai
from google.genai import errors, types

from harness import MODEL
from harness.engine.server import ensure_running
from harness.plumbing.client import OFFLINE_KEY
from harness.tokens import approx_tokens


def _client(api_version: str) -> genai.Client:
    options = types.HttpOptions(
        base_url=ensure_running(),
        api_version=api_version,
        retry_options=types.HttpRetryOptions(attempts=1),
    )
    return genai.Client(api_key=OFFLINE_KEY, vertexai=False, http_options=options)


def test_ensure_running_starts_one_server_even_when_many_threads_ask_at_once():
    urls, barrier = [], threading.Barrier(8)

    def ask():
        barrier.wait()
        urls.append(ensure_running())

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(set(urls)) == 1
    assert urls[0].startswith("http://127.0.0.1:")


def test_300_calls_through_one_client_do_not_leak_threads(glass_box):
    glass_box.models.generate_content(model=MODEL, contents="Warm up.")
    before = threading.active_count()
    for turn in range(300):
        glass_box.models.generate_content(model=MODEL, contents=f"Message number {turn}.")
    assert threading.active_count() <= before + 2


def test_the_server_logs_nothing(glass_box, capfd):
    glass_box.models.generate_content(model=MODEL, contents="Is anyone logging this?")
    with pytest.raises(errors.ClientError):
        glass_box.models.generate_content(model="no-such-model", contents="hi")
    captured = capfd.readouterr()
    assert captured.err == "" and captured.out == ""


@pytest.mark.parametrize("api_version", ["v1", "v1beta"])
def test_both_api_versions_answer_the_same(glass_box, api_version):
    request = dict(model=MODEL, contents="My invoice number is 4417. What is my invoice number?")
    expected = glass_box.models.generate_content(**request)
    client = _client(api_version)  # NOTE: keep a reference: a collected Client closes its transport
    reply = client.models.generate_content(**request)
    assert reply.text == expected.text
    assert "4417" in reply.text
    assert reply.usage_metadata.prompt_token_count == expected.usage_metadata.prompt_token_count
    counted = client.models.count_tokens(model=MODEL, contents="one two three")
    assert counted.total_tokens == approx_tokens("one two three")


def test_the_same_request_always_gets_the_same_answer(glass_box):
    request = dict(
        model=MODEL,
        contents=["The VAT rate is 20 percent.", "Which VAT rate applies?"],
        config=types.GenerateContentConfig(system_instruction="Answer from the context."),
    )
    first = glass_box.models.generate_content(**request)
    again = glass_box.models.generate_content(**request)
    assert first.text == again.text
    assert first.model_dump(exclude={"sdk_http_response", "usage_metadata"}) == again.model_dump(
        exclude={"sdk_http_response", "usage_metadata"}
    )
    assert (
        first.usage_metadata.candidates_token_count == again.usage_metadata.candidates_token_count
    )


def test_an_unserved_route_is_a_404_json_error_that_says_what_is_served(glass_box):
    with pytest.raises(errors.ClientError) as caught:
        glass_box._api_client.request("get", "tunedModels", {})
    assert caught.value.code == 404
    assert (
        "generateContent, streamGenerateContent, countTokens, models and cachedContents"
        in caught.value.message
    )


def test_a_body_that_is_not_json_is_a_400_that_says_where_it_breaks(glass_box):
    # The SDK always sends valid JSON, so this one request goes around it, straight to the server.
    request = urllib.request.Request(
        f"{ensure_running()}/v1beta/models/{MODEL}:generateContent",
        data=b'{"contents": [',
        method="POST",
        headers={"Content-Type": "application/json", "x-goog-api-key": "offline"},
    )
    with pytest.raises(urllib.error.HTTPError) as caught:
        urllib.request.urlopen(request, timeout=10)
    error = json.loads(caught.value.read())["error"]
    assert caught.value.code == 400 and error["status"] == "INVALID_ARGUMENT"
    assert "not valid JSON" in error["message"]
    assert "line 1, column 15" in error["message"]


def test_empty_contents_is_a_400_saying_contents_is_not_specified(glass_box):
    # The SDK refuses empty contents before sending, so we go one layer down: its own transport.
    with pytest.raises(errors.ClientError) as caught:
        glass_box._api_client.request("post", f"models/{MODEL}:generateContent", {"contents": []})
    assert caught.value.code == 400
    assert caught.value.message == "* GenerateContentRequest.contents: contents is not specified"

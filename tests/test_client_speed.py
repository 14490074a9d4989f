"""What harness.plumbing.client does so the real SDK costs less on the glass box, without changing a
request: histories sent as plain dicts (`plain`), and no TLS set-up for a loopback server that
speaks HTTP.
"""

import json
import ssl

from google.genai import types

import harness
from harness.plumbing.client import plain

HISTORY = [
    types.Content(role="user", parts=[types.Part.from_text(text="Fix the failing test.")]),
    types.Content(
        role="model",
        parts=[
            types.Part(
                function_call=types.FunctionCall(name="run_command", args={"command": "pytest -q"}),
                thought_signature=b"skip_thought_signature_validator",
            ),
            types.Part.from_text(text="Running the tests."),
        ],
    ),
    types.Content(
        role="user",
        parts=[
            types.Part.from_function_response(
                name="run_command", response={"output": "2 failed, 4 passed", "exit": 1}
            )
        ],
    ),
]


def test_plain_contents_make_the_same_request_as_content_objects(glass_box, tmp_path, monkeypatch):
    path = tmp_path / "wire.jsonl"
    monkeypatch.setenv("WORKBOOK_RECORDING", f"record:{path}")
    client = harness.connect(retry_attempts=1)
    for contents in (HISTORY, plain(HISTORY)):
        client.models.generate_content(model=harness.MODEL, contents=contents)
    first, second = (json.loads(line)["request"] for line in path.read_text().splitlines())
    assert first == second
    assert first["contents"][1]["parts"][0]["thoughtSignature"], (
        "the signature must travel in both forms"
    )


def test_plain_leaves_what_is_not_a_list_of_contents_as_it_is():
    assert plain("a question") == "a question"
    assert plain(HISTORY[0]) is HISTORY[0]
    mixed = plain([HISTORY[0], {"role": "user", "parts": [{"text": "hi"}]}])
    assert mixed[0] == {"role": "user", "parts": [{"text": "Fix the failing test."}]}
    assert mixed[1] == {"role": "user", "parts": [{"text": "hi"}]}


def test_a_glass_box_client_loads_no_certificate_authority(glass_box, monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError(
            "connect() built a TLS context with the system's CAs for a plain-HTTP glass box"
        )

    monkeypatch.setattr(ssl, "create_default_context", refuse)
    monkeypatch.setattr(ssl.SSLContext, "load_default_certs", refuse)
    # the SDK's path without SSL_CERT_FILE
    monkeypatch.setattr(ssl.SSLContext, "load_verify_locations", refuse)
    client = harness.connect(retry_attempts=1)
    assert client.models.generate_content(model=harness.MODEL, contents="hello").text

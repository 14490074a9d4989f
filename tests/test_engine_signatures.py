"""Thought signatures as Gemini 3 and 4 enforce them: signed on the first call of each step, checked
over the current turn only, dummies accepted, and kept through the SDK's bytes round trip.

The expected wording is written out here, not imported, so editing the engine's copy fails a test.
"""

import pytest
from google.genai import errors, types

from harness.engine.signatures import DUMMY_SIGNATURES

SIGNED = "gemini-3.8-flash"  # signatures_required in harness/models.py
UNSIGNED = "gemini-2.5-flash"
DUMMY = DUMMY_SIGNATURES[0].encode()  # a signature Gemini accepts for a call it did not make
TOOLS = [
    types.Tool(
        function_declarations=[
            types.FunctionDeclaration(
                name=name,
                description=f"{name} a file",
                parameters={"type": "OBJECT", "properties": {"path": {"type": "STRING"}}},
            )
            for name in ("read_file", "list_files")
        ]
    )
]
CONFIG = types.GenerateContentConfig(tools=TOOLS)


def missing(name: str, position: int) -> str:
    return (
        "Function call is missing a thought_signature in functionCall parts. This is required for"
        " tools to work correctly, and missing thought_signature may lead to degraded model"
        f" performance. Additional data, function call `default_api:{name}` , position {position}."
        " Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more"
        " details."
    )


def user(text):
    return types.Content(role="user", parts=[types.Part.from_text(text=text)])


def call(*names, signature=None):
    parts = [types.Part.from_function_call(name=n, args={"path": "README.md"}) for n in names]
    if signature is not None:
        parts[0].thought_signature = signature
    return types.Content(role="model", parts=parts)


def answer(*names):
    return types.Content(
        role="user",
        parts=[types.Part.from_function_response(name=n, response={"output": "ok"}) for n in names],
    )


def refusal(client, contents, model=SIGNED) -> errors.ClientError:
    with pytest.raises(errors.ClientError) as caught:
        client.models.generate_content(model=model, contents=contents, config=CONFIG)
    return caught.value


def test_a_signing_model_signs_the_first_call_of_its_step_and_the_signature_survives_the_sdk(
    glass_box,
):
    task = [user("Call list_files for '.' first.")]
    reply = glass_box.models.generate_content(model=SIGNED, contents=task, config=CONFIG)
    parts = reply.candidates[0].content.parts
    calls = [part for part in parts if part.function_call]
    assert calls, "the generic caller should call the function the message names"
    assert isinstance(calls[0].thought_signature, bytes) and calls[0].thought_signature
    assert all(part.thought_signature is None for part in calls[1:])
    # sent back as the SDK sends it (base64 on the wire), the step is accepted
    history = task + [reply.candidates[0].content, answer(*(c.function_call.name for c in calls))]
    assert glass_box.models.generate_content(
        model=SIGNED, contents=history, config=CONFIG
    ).candidates


def test_the_signature_is_derived_from_the_request_not_drawn_at_random(glass_box):
    task = [user("Call list_files for '.' first.")]
    first = glass_box.models.generate_content(model=SIGNED, contents=task, config=CONFIG)
    again = glass_box.models.generate_content(model=SIGNED, contents=task, config=CONFIG)
    other = glass_box.models.generate_content(
        model=SIGNED, contents=[user("Call read_file for 'README.md'.")], config=CONFIG
    )

    def signature(reply):
        return next(
            p.thought_signature for p in reply.candidates[0].content.parts if p.function_call
        )

    assert signature(first) == signature(again) != signature(other)


def test_a_model_that_does_not_require_signatures_sends_none(legacy_models, glass_box):
    reply = glass_box.models.generate_content(
        model=UNSIGNED, contents=[user("Call list_files for '.' first.")], config=CONFIG
    )
    assert any(part.function_call for part in reply.candidates[0].content.parts)
    assert all(part.thought_signature is None for part in reply.candidates[0].content.parts)


def test_a_dropped_signature_in_the_current_turn_is_geminis_400_naming_function_and_position(
    glass_box,
):
    contents = [user("Fix the tests."), call("read_file"), answer("read_file")]
    error = refusal(glass_box, contents)
    assert error.code == 400 and error.status == "INVALID_ARGUMENT"
    assert error.message == missing("read_file", 2)


def test_every_step_of_the_current_turn_is_checked_not_only_the_first(glass_box):
    contents = [
        user("Fix the tests."),
        call("list_files", signature=DUMMY),
        answer("list_files"),
        call("read_file"),
        answer("read_file"),
    ]
    assert refusal(glass_box, contents).message == missing("read_file", 4)


def test_in_parallel_calls_only_the_first_needs_one(glass_box):
    contents = [
        user("Fix the tests."),
        call("list_files", "read_file", signature=DUMMY),
        answer("list_files", "read_file"),
    ]
    assert glass_box.models.generate_content(
        model=SIGNED, contents=contents, config=CONFIG
    ).candidates
    moved = call("list_files", "read_file")
    moved.parts[1].thought_signature = DUMMY  # kept, but on the wrong part
    assert refusal(
        glass_box, [user("Fix the tests."), moved, answer("list_files", "read_file")]
    ).message == missing("list_files", 2)


def test_earlier_turns_are_not_checked(glass_box):
    old_turn = [
        user("What is in the project?"),
        call("list_files"),
        answer("list_files"),
        types.Content(role="model", parts=[types.Part.from_text(text="Two modules and tests.")]),
    ]
    contents = old_turn + [
        user("Now read the README."),
        call("read_file", signature=DUMMY),
        answer("read_file"),
    ]
    assert glass_box.models.generate_content(
        model=SIGNED, contents=contents, config=CONFIG
    ).candidates


def test_a_function_response_does_not_start_a_new_turn(glass_box):
    # the latest user message *with text* starts the turn: the unsigned call before the response
    # counts
    contents = [user("Fix the tests."), call("read_file"), answer("read_file")]
    assert refusal(glass_box, contents).code == 400


@pytest.mark.parametrize("dummy", DUMMY_SIGNATURES)
def test_the_documented_dummy_values_are_accepted_as_bytes_from_the_sdk(glass_box, dummy):
    contents = [
        user("Fix the tests."),
        call("read_file", signature=dummy.encode()),
        answer("read_file"),
    ]
    assert glass_box.models.generate_content(
        model=SIGNED, contents=contents, config=CONFIG
    ).candidates


@pytest.mark.parametrize(
    "dummy", ["skip_thought_signature_validator", "context_engineering_is_the_way_to_go"]
)
def test_the_documented_dummy_values_are_accepted_raw_on_the_wire(glass_box, dummy):
    body = {
        "contents": [
            {"role": "user", "parts": [{"text": "Fix the tests."}]},
            {
                "role": "model",
                "parts": [
                    {"functionCall": {"name": "read_file", "args": {}}, "thoughtSignature": dummy}
                ],
            },
            {
                "role": "user",
                "parts": [{"functionResponse": {"name": "read_file", "response": {}}}],
            },
        ]
    }
    reply = glass_box._api_client.request("post", f"models/{SIGNED}:generateContent", body)
    assert "candidates" in reply.body


def test_a_signature_that_is_not_base64_is_refused_like_any_bytes_field(glass_box):
    body = {
        "contents": [
            {"role": "user", "parts": [{"text": "Fix the tests."}]},
            {
                "role": "model",
                "parts": [
                    {
                        "functionCall": {"name": "read_file", "args": {}},
                        "thoughtSignature": "not base64!",
                    }
                ],
            },
            {
                "role": "user",
                "parts": [{"functionResponse": {"name": "read_file", "response": {}}}],
            },
        ]
    }
    with pytest.raises(errors.ClientError) as caught:
        glass_box._api_client.request("post", f"models/{SIGNED}:generateContent", body)
    assert caught.value.code == 400
    assert (
        "contents[1].parts[0].thought_signature" in caught.value.message
        and "Base64" in caught.value.message
    )


def test_the_agent_session_compacts_and_resumes_on_a_signing_model(glass_box, tmp_path):
    # the harness side keeps the signatures: the loop appends the model's content whole, compaction
    # keeps the current turn's steps as they were, and a checkpoint stores the bytes as base64
    from harness.agent.config import AgentConfig
    from harness.agent.loop import run_agent

    checkpoint = tmp_path / "run.jsonl"
    first = run_agent(
        AgentConfig(model=SIGNED, context_budget=5000, max_turns=9),
        client=glass_box,
        checkpoint=checkpoint,
    )
    assert any(turn.compacted for turn in first.turns), (
        "a budget of 5000 should compact before turn 9"
    )
    report = run_agent(
        AgentConfig(model=SIGNED, context_budget=5000), client=glass_box, checkpoint=checkpoint
    )
    assert report.status == "finished" and "6 passed" in (report.last_verdict or "")
    calls = [
        p for c in report.history if c.role == "model" for p in c.parts or [] if p.function_call
    ]
    assert calls and all(isinstance(p.thought_signature, bytes) for p in calls)


@pytest.mark.parametrize("made_up", [b"sig-1", b"\x00signed\xff", b"glass-box"])
def test_a_signature_the_glass_box_did_not_issue_is_geminis_400(glass_box, made_up):
    contents = [user("Fix the tests."), call("list_files", signature=made_up), answer("list_files")]
    assert refusal(glass_box, contents).message == "Corrupted thought signature."


@pytest.mark.parametrize("dummy", DUMMY_SIGNATURES)
def test_both_documented_dummies_pass_as_bytes_and_as_rest_text(glass_box, dummy):
    contents = [
        user("Fix the tests."),
        call("list_files", signature=dummy.encode()),
        answer("list_files"),
    ]
    assert glass_box.models.generate_content(
        model=SIGNED, contents=contents, config=CONFIG
    ).candidates
    body = {
        "contents": [
            {"role": "user", "parts": [{"text": "Fix the tests."}]},
            {
                "role": "model",
                "parts": [
                    {"functionCall": {"name": "list_files", "args": {}}, "thoughtSignature": dummy}
                ],
            },
            {
                "role": "user",
                "parts": [{"functionResponse": {"name": "list_files", "response": {}}}],
            },
        ]
    }
    assert glass_box._api_client.request("post", f"models/{SIGNED}:generateContent", body)


def test_a_text_answer_with_thoughts_carries_a_signature_on_its_last_part_and_it_goes_back(
    glass_box,
):
    # The cookbook's Get_started (June 2026) prints response.parts[1].thought_signature of such an
    # answer.
    config = types.GenerateContentConfig(
        thinking_config=types.ThinkingConfig(thinking_level="high", include_thoughts=True)
    )
    chat = glass_box.chats.create(model=SIGNED, config=config)
    reply = chat.send_message("My dog is called Rex.")
    assert reply.parts[0].thought and not reply.parts[0].thought_signature
    assert reply.parts[-1].thought_signature and not reply.parts[-1].thought
    # the signed answer goes back: accepted
    assert "Rex" in chat.send_message("What is my dog called?").text

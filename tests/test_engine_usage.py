"""usageMetadata and countTokens count with approx_tokens, block by block, and agree with each
other."""

import json

from google.genai import types

from harness import MODEL
from harness.engine import behaviours
from harness.tokens import approx_tokens

SYSTEM = "You answer questions about invoices.\nQuote the README when you can."
TURNS = [
    "Invoices are due in 30 days.",
    "Noted.",
    "Discounts apply from 50 units.\nAmounts round half-up.",
    "Noted.",
    "When are invoices due?",
]


def history(texts):
    return [
        types.Content(role="user" if i % 2 == 0 else "model", parts=[types.Part.from_text(text=t)])
        for i, t in enumerate(texts)
    ]


def test_prompt_tokens_of_a_text_request_are_exactly_the_harness_count(glass_box):
    reply = glass_box.models.generate_content(
        model=MODEL,
        contents=history(TURNS),
        config=types.GenerateContentConfig(system_instruction=SYSTEM),
    )
    assert reply.usage_metadata.prompt_token_count == approx_tokens(SYSTEM) + sum(
        approx_tokens(t) for t in TURNS
    )


def test_total_is_prompt_plus_candidates_and_candidates_count_the_reply(glass_box):
    usage_reply = glass_box.models.generate_content(model=MODEL, contents=history(TURNS))
    usage = usage_reply.usage_metadata
    assert usage.candidates_token_count == approx_tokens(usage_reply.text) > 0
    # thinking is on at the model's default level: billed as output
    assert usage.total_token_count == usage.prompt_token_count + usage.candidates_token_count + (
        usage.thoughts_token_count or 0
    )


def test_a_small_cold_request_reports_no_cached_tokens(glass_box):
    usage = glass_box.models.generate_content(model=MODEL, contents="Hello there.").usage_metadata
    assert not usage.cached_content_token_count


def test_count_tokens_agrees_with_the_prompt_count_of_the_same_contents(glass_box):
    counted = glass_box.models.count_tokens(model=MODEL, contents=history(TURNS)).total_tokens
    used = glass_box.models.generate_content(model=MODEL, contents=history(TURNS)).usage_metadata
    assert counted == used.prompt_token_count == sum(approx_tokens(t) for t in TURNS)


def test_function_calls_and_responses_count_as_name_plus_canonical_json(glass_box):
    args, response = {"path": "README.md"}, {"output": "# Invoicing\nDue in 30 days."}
    contents = [
        types.Content(role="user", parts=[types.Part.from_text(text="Read the README.")]),
        types.Content(
            role="model",
            parts=[
                types.Part(
                    function_call=types.FunctionCall(name="read_file", args=args),
                    thought_signature=b"skip_thought_signature_validator",
                )
            ],
        ),
        types.Content(
            role="user",
            parts=[types.Part.from_function_response(name="read_file", response=response)],
        ),
    ]
    usage = glass_box.models.generate_content(model=MODEL, contents=contents).usage_metadata
    # the signature (a documented dummy: MODEL may require one) is not text the model reads: it
    # costs nothing
    expected = (
        approx_tokens("Read the README.")
        + approx_tokens("read_file " + json.dumps(args, sort_keys=True))
        + approx_tokens("read_file " + json.dumps(response, sort_keys=True))
    )
    assert usage.prompt_token_count == expected


def test_each_function_declaration_counts_as_its_canonical_json(glass_box, monkeypatch):
    # count only, whoever answers
    monkeypatch.setattr(behaviours, "policy_for", lambda declared: None)
    declaration = types.FunctionDeclaration(
        name="read_file",
        description="Read a file.",
        parameters=types.Schema(type="OBJECT", properties={"path": types.Schema(type="STRING")}),
    )
    with_tool = types.GenerateContentConfig(tools=[types.Tool(function_declarations=[declaration])])
    bare = glass_box.models.generate_content(
        model=MODEL, contents="Hi."
    ).usage_metadata.prompt_token_count
    tooled = glass_box.models.generate_content(
        model=MODEL, contents="Hi.", config=with_tool
    ).usage_metadata
    wire = {
        "description": "Read a file.",
        "name": "read_file",
        "parameters": {"properties": {"path": {"type": "STRING"}}, "type": "OBJECT"},
    }
    assert tooled.prompt_token_count - bare == approx_tokens(json.dumps(wire, sort_keys=True))

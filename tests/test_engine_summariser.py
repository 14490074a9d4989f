"""The summariser: extractive, under the asked headings, from the given transcript only, on a
budget."""

import re

from google.genai import types

from harness import MODEL
from harness.engine import reader
from harness.engine.summariser import DEFAULT_WORD_BUDGET
from harness.formats import AGENT_HEADINGS, CONVERSATION_HEADINGS
from harness.transcript import transcript_text_of

AGENT_ASK = "Summarise the session so far under these headings: " + ", ".join(AGENT_HEADINGS) + "."
CHAT_ASK = (
    "Summarize the conversation under " + ", ".join(CONVERSATION_HEADINGS) + ". At most {n} words."
)


def user(text):
    return types.Content(role="user", parts=[types.Part.from_text(text=text)])


# A call written by hand, not by the model: Gemini 3 models want the documented dummy signature on
# it.
DUMMY = b"skip_thought_signature_validator"


def signed_call(name, args):
    return types.Part(
        function_call=types.FunctionCall(name=name, args=args), thought_signature=DUMMY
    )


def call(name, **args):
    return types.Content(role="model", parts=[signed_call(name, args)])


def result(name, output):
    return types.Content(
        role="user",
        parts=[types.Part.from_function_response(name=name, response={"output": output})],
    )


SESSION = [
    user("Fix the invoicing package so that all tests pass. The README has the rules."),
    call("read_file", path="README.md"),
    result(
        "read_file",
        "# Invoicing\nA discount applies from 50 units.\nAmounts round half-up to the cent.",
    ),
    call("read_file", path="invoicing/pricing.py"),
    result(
        "read_file",
        "DISCOUNT_FROM = 50\n\ndef discount(qty):\n    if qty > DISCOUNT_FROM:\n        return"
        " 0.05",
    ),
    call("run_command", command="pytest -q"),
    result(
        "run_command",
        "..F.F.\nFAILED tests/test_pricing.py::test_discount_at_50\n2 failed, 4 passed in 0.03s",
    ),
    call("edit_file", path="invoicing/totals.py", old="round(x, 2)", new="x"),
    result("edit_file", "ERROR: old text not found in invoicing/totals.py"),
    call(
        "edit_file",
        path="invoicing/pricing.py",
        old="qty > DISCOUNT_FROM",
        new="qty >= DISCOUNT_FROM",
    ),
    result("edit_file", "Edited invoicing/pricing.py: 1 replacement."),
]


def summary(client, instruction, transcript):
    return client.models.generate_content(
        model=MODEL, contents=instruction + "\n\n" + transcript
    ).text


def sections(text):
    """{'Objective': 'Fix ...', ...} from '**Heading:** items' lines."""
    return dict(re.findall(r"^\*\*(.+?):\*\* ?(.*)$", text, re.MULTILINE))


def test_each_agent_heading_is_extracted_from_the_transcript(glass_box):
    found = sections(summary(glass_box, AGENT_ASK, transcript_text_of(SESSION)))
    assert list(found) == list(AGENT_HEADINGS)
    assert found["Objective"] == "Fix the invoicing package so that all tests pass."
    assert (
        found["Files read"] == "README.md (`Amounts round half-up to the cent.`); "
        "invoicing/pricing.py (`if qty > DISCOUNT_FROM:`)"
    )
    assert found["Changes made"] == "invoicing/pricing.py"
    assert found["Last tests"] == "2 failed, 4 passed in 0.03s"
    assert (
        found["Discarded hypotheses"]
        == "edit_file invoicing/totals.py failed: old text not found in invoicing/totals.py"
    )
    assert found["Still to do"] == "re-run the tests to check the changes"


def test_two_calls_in_one_turn_get_their_own_outputs(glass_box):
    both = [
        SESSION[0],
        types.Content(
            role="model",
            parts=[
                signed_call("read_file", {"path": p}) for p in ("README.md", "invoicing/pricing.py")
            ],
        ),
        types.Content(role="user", parts=[SESSION[2].parts[0], SESSION[4].parts[0]]),
    ]
    found = sections(summary(glass_box, AGENT_ASK, transcript_text_of(both)))
    assert (
        found["Files read"] == "README.md (`Amounts round half-up to the cent.`); "
        "invoicing/pricing.py (`if qty > DISCOUNT_FROM:`)"
    )


def test_only_the_named_headings_in_the_order_named(glass_box):
    ask = "Write a summary with: Last tests, Objective, Changes made."
    found = sections(summary(glass_box, ask, transcript_text_of(SESSION)))
    assert list(found) == ["Last tests", "Objective", "Changes made"]


def test_edits_outside_the_transcript_do_not_exist_for_it(glass_box):
    # The seeds' trap: the early turns are summarised, the edit sits in the recent turns kept
    # verbatim.
    found = sections(summary(glass_box, AGENT_ASK, transcript_text_of(SESSION[1:5])))
    assert found["Changes made"] == "none"
    assert found["Last tests"] == "not run"
    assert found["Still to do"] == "run the tests"
    assert found["Objective"] == "not stated in the transcript"


def test_a_previous_summary_in_the_transcript_is_material_too(glass_box):
    first = summary(glass_box, AGENT_ASK, transcript_text_of(SESSION[:7]))
    later = transcript_text_of([user("Earlier work, summarised:\n" + first)] + SESSION[7:])
    found = sections(summary(glass_box, AGENT_ASK, later))
    assert "invoicing/pricing.py (`if qty > DISCOUNT_FROM:`)" in found["Files read"]
    assert found["Last tests"] == "2 failed, 4 passed in 0.03s"
    assert found["Changes made"] == "invoicing/pricing.py"


def test_the_instruction_may_sit_in_the_system_instruction_over_plain_messages(glass_box):
    chat = [
        user("I am a bookkeeper in Tromso."),
        types.Content(role="model", parts=[types.Part.from_text(text="Noted.")]),
        user("How do I void an invoice?"),
    ]
    config = types.GenerateContentConfig(system_instruction=CHAT_ASK.format(n=100))
    found = sections(
        glass_box.models.generate_content(model=MODEL, contents=chat, config=config).text
    )
    assert found == {
        "User facts": "I am a bookkeeper in Tromso.",
        "Topics discussed": "How do I void an invoice?",
        "Open questions": "How do I void an invoice?",
    }


def test_a_history_of_parts_reads_the_same_as_its_transcript(glass_box):
    config = types.GenerateContentConfig(system_instruction=AGENT_ASK)
    from_parts = glass_box.models.generate_content(
        model=MODEL, contents=SESSION, config=config
    ).text
    assert from_parts == summary(glass_box, AGENT_ASK, transcript_text_of(SESSION))


def test_the_word_budget_holds(glass_box):
    long_session = transcript_text_of(SESSION * 6)
    assert len(summary(glass_box, AGENT_ASK, long_session).split()) <= DEFAULT_WORD_BUDGET
    assert len(summary(glass_box, AGENT_ASK + " Use at most 40 words.", long_session).split()) <= 40


def test_repeated_compaction_loses_the_oldest_facts_first(glass_box):
    facts = [f"My locker number is {n}{n}." for n in range(1, 13)]  # twelve facts, oldest first
    text = "\n".join(f"user: {fact}" for fact in facts[:6])
    first = summary(glass_box, CHAT_ASK.format(n=30), text)
    assert "66" in first and "11." not in first  # newest first: the oldest fact lost room already
    again = summary(
        glass_box, CHAT_ASK.format(n=30), first + "\n" + "\n".join(f"user: {f}" for f in facts[6:])
    )
    assert "1212" in again and "66" not in again


def test_it_is_deterministic(glass_box):
    transcript = transcript_text_of(SESSION)
    assert summary(glass_box, AGENT_ASK, transcript) == summary(glass_box, AGENT_ASK, transcript)


def test_fewer_than_three_headings_is_not_a_summary_request(glass_box):
    answer = summary(
        glass_box, "Summarise the Objective and Last tests.", transcript_text_of(SESSION)
    )
    assert not sections(answer)
    assert (
        answer.startswith("Noted")
        or answer.startswith("From what I can see")
        or answer == reader.DONT_KNOW
    )

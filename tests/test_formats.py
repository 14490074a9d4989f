"""Each text format: what one side writes, the other side reads back, through harness.formats."""

from google.genai import types

from harness import formats
from harness.compaction import SUMMARY_PROMPT, harness_state
from harness.masking import mask_observations
from harness.probes import CONVERSATION_SUMMARY
from harness.tools import Workspace
from harness.transcript import render_part
from harness.truncation import extract_verdict


def test_the_state_block_compaction_writes_is_the_one_the_glass_box_parses():
    block = harness_state({"b.py", "a/c.py"}, "2 failed, 4 passed in 0.1s")
    assert formats.parse_state(block) == (["a/c.py", "b.py"], "2 failed, 4 passed in 0.1s")
    assert formats.parse_state(harness_state(set(), None)) == ([], None)
    assert formats.parse_state("no state here") == (None, None)


def test_transcript_entries_parse_back_to_what_was_rendered():
    call = types.Part.from_function_call(name="read_file", args={"path": "README.md"})
    reply = types.Part.from_function_response(name="read_file", response={"output": "# title"})
    assert formats.parse_entry(render_part("user", types.Part.from_text(text="Fix it."))) == (
        "text",
        "user",
        "",
        "Fix it.",
    )
    assert formats.parse_entry(render_part("model", call)) == (
        "call",
        "model",
        "read_file",
        '{"path": "README.md"}',
    )
    assert formats.parse_entry(render_part("user", reply)) == (
        "response",
        "tool",
        "read_file",
        "# title",
    )
    assert formats.parse_entry("a continuation line") is None


def test_a_masked_output_is_recognised_as_masked():
    history = [types.Content(role="user", parts=[types.Part.from_text(text="Go.")])]
    for n in range(3):
        history += [
            types.Content(
                role="model",
                parts=[types.Part.from_function_call(name="read_file", args={"path": f"{n}.py"})],
            ),
            types.Content(
                role="user",
                parts=[
                    types.Part.from_function_response(
                        name="read_file", response={"output": f"text {n} " * 40}
                    )
                ],
            ),
        ]
    masked = mask_observations(history, {}, keep_last=1)
    outputs = [
        p.function_response.response["output"]
        for c in masked
        for p in c.parts
        if p.function_response
    ]
    assert [formats.is_masked(o) for o in outputs] == [True, True, False]


def test_the_summary_prompts_name_the_headings_the_summariser_knows():
    assert formats.headings_named(SUMMARY_PROMPT) == list(formats.AGENT_HEADINGS)
    assert formats.headings_named(CONVERSATION_SUMMARY) == list(formats.CONVERSATION_HEADINGS)


def test_heading_lines_and_file_items_round_trip():
    line = formats.heading_line(
        "Files read", [formats.file_item("a.py", "if x > 1:"), formats.file_item("b.md")]
    )
    heading, items = formats.parse_heading(line)
    assert heading == "Files read"
    assert [formats.parse_file_item(i) for i in items.split(formats.ITEM_SEPARATOR)] == [
        ("a.py", "if x > 1:"),
        ("b.md", ""),
    ]
    assert formats.parse_heading("## files READ: a.py") == ("Files read", "a.py")


def test_the_verdict_line_is_the_one_lesson_04_reads(tmp_path):
    log = "collected 6 items\n... 2 passed earlier ...\n===== 1 failed, 5 passed in 0.02s ====="
    assert (
        formats.verdict_line(log)
        == extract_verdict(log)
        == "===== 1 failed, 5 passed in 0.02s ====="
    )
    assert formats.verdict_line("no tests ran") is None


def test_the_tool_errors_the_glass_box_reads_are_the_ones_the_tools_write(tmp_path):
    (tmp_path / "a.py").write_text("x = 1\n")
    stale = Workspace(tmp_path).edit_file("a.py", "x = 2", "x = 3")
    assert formats.is_error_output(stale) and formats.STALE_EDIT in stale


def test_a_response_answers_the_oldest_unanswered_call_of_its_name():
    calls = formats.CallMatcher()
    calls.called("read_file", 1)
    calls.called("run_command", 2)
    calls.called("read_file", 3)
    assert [
        calls.answered("read_file"),
        calls.answered("read_file"),
        calls.answered("run_command"),
    ] == [1, 3, 2]
    assert calls.answered("read_file", "none left") == "none left"

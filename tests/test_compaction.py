"""safe_split_points (5.1), compact (5.2), harness_state (6.1) and compact(state=) (6.2), per
rule."""

import pytest
from google.genai import types

from harness.checks.lesson04 import agent_history
from harness.compaction import SUMMARY_PROMPT, compact, harness_state, safe_split_points
from harness.transcript import transcript_text_of


def history(turns=5):
    return agent_history(*[("read_file", {"path": f"f{n}.py"}, f"text {n}") for n in range(turns)])


def summary(text):
    return "**Changes made:** none"


def head_text(new):
    return "\n".join(p.text for p in new[0].parts)


# --- a function response is never a cut point ----------------------------------------------------


def test_split_points_are_model_messages_only():
    h = history(3)
    assert safe_split_points(h) == [1, 3, 5]
    assert all(h[i].role == "model" for i in safe_split_points(h))


def test_compaction_never_starts_the_kept_part_with_a_function_response():
    for keep in range(1, 5):
        new, _ = compact(history(5), keep, summary)
        assert new[1].role == "model" and new[1].parts[0].function_call is not None


# --- recent turns survive word for word
# ------------------------------------------------------------


def test_recent_turns_survive_word_for_word():
    h = history(5)
    new, folded = compact(h, 2, summary)
    assert new[1:] == h[7:] and folded == 6


def test_too_few_turns_leaves_the_history_alone():
    h = history(3)
    new, folded = compact(h, 3, summary)
    assert (new, folded) == (h, 0)


# --- the summary note names how many messages it replaces
# --------------------------------------------


def test_the_note_names_the_count_and_gives_the_kept_turns_precedence():
    new, folded = compact(history(5), 3, summary)
    assert f"Summary of the {folded} earlier messages" in head_text(new)
    assert "take precedence over this summary" in head_text(new)


def test_the_summariser_sees_the_folded_messages_only():
    seen = []
    h = history(5)
    compact(h, 3, lambda text: seen.append(text) or "s")
    assert seen == [transcript_text_of(h[1:5])] and "Fix the invoicing tests." not in seen[0]


def test_a_second_compaction_replaces_the_first_summary():
    once, _ = compact(history(6), 3, lambda text: "FIRST")
    twice, _ = compact(once + history(3)[1:], 3, lambda text: "SECOND")
    assert "SECOND" in head_text(twice) and "FIRST" not in head_text(twice)
    assert twice[0].parts[0].text == "Fix the invoicing tests."


def test_the_summary_prompt_asks_for_the_six_headings():
    for heading in (
        "Objective",
        "Files read",
        "Changes made",
        "Last tests",
        "Discarded hypotheses",
        "Still to do",
    ):
        assert f"**{heading}:**" in SUMMARY_PROMPT


# --- the state block lists every edited file
# ---------------------------------------------------------


def test_the_state_block_lists_every_edited_file_sorted():
    block = harness_state({"invoicing/discounts.py", "invoicing/amounts.py"}, "6 passed")
    assert "Edited files: invoicing/amounts.py, invoicing/discounts.py" in block
    assert "Last test verdict: 6 passed" in block and "Harness-held state" in block.splitlines()[0]


def test_the_state_block_says_none_when_nothing_happened():
    block = harness_state([], None)
    assert "Edited files: none" in block and "no tests run" in block


def test_the_state_follows_the_summary_in_the_first_message():
    state = harness_state({"a.py"}, "6 passed")
    text = head_text(compact(history(5), 3, summary, state=state)[0])
    assert text.index("**Changes made:** none") < text.index(state)


# --- bad input is refused with the reason
# --------------------------------------------------------------


def test_keep_recent_turns_below_one_is_refused():
    with pytest.raises(ValueError, match="keep_recent_turns"):
        compact(history(5), 0, summary)


@pytest.mark.parametrize(
    "first",
    [
        types.Content(role="model", parts=[types.Part.from_text(text="hi")]),
        types.Content(
            role="user",
            parts=[types.Part.from_function_response(name="ls", response={"output": "x"})],
        ),
    ],
)
def test_a_history_not_starting_with_the_task_is_refused(first):
    with pytest.raises(ValueError, match="task"):
        compact([first, *history(5)[1:]], 3, summary)

"""Observation masking (4.3): old outputs become references, recent turns and live errors stay."""

import pytest

from harness.checks.lesson04 import agent_history
from harness.masking import mask_observations, reference_of

README = "# invoicing\n" + "Amounts round half-up to the cent. " * 30


def output(content):
    return content.parts[0].function_response.response["output"]


def history():
    return agent_history(
        ("read_file", {"path": "README.md"}, README),
        ("run_command", {"command": "pytest"}, "ERROR: pytest timed out"),
        ("read_file", {"path": "a.py"}, "import decimal\n" * 20),
        ("read_file", {"path": "b.py"}, "x = 1\n" * 20),
    )


# --- old outputs become short references, their text kept in the store
# -------------------------------


def test_old_outputs_are_replaced_by_a_reference_held_in_the_store():
    store = {}
    masked = mask_observations(history(), store, keep_last=1)
    assert output(masked[2]).startswith(f"[masked {reference_of(README)}:")
    assert store[reference_of(README)] == README
    assert len(output(masked[2])) < len(README) / 5


def test_masking_is_stable_and_idempotent():
    store = {}
    once = mask_observations(history(), store, keep_last=1)
    twice = mask_observations(once, store, keep_last=1)
    assert [c.model_dump() for c in once] == [c.model_dump() for c in twice]


# --- never masked: the recent turns, a live error, the calls
# ----------------------------------------


def test_the_last_turns_survive_word_for_word():
    original = history()
    masked = mask_observations(original, {}, keep_last=2)
    assert masked[-4:] == original[-4:]


def test_an_error_still_being_debugged_stays_visible():
    masked = mask_observations(history(), {}, keep_last=1)
    assert output(masked[4]) == "ERROR: pytest timed out"


def test_a_resolved_error_can_be_masked():
    h = history() + agent_history(("run_command", {"command": "pytest"}, "6 passed"))[1:]
    masked = mask_observations(h, {}, keep_last=1)
    assert output(masked[4]).startswith("[masked ")


def test_the_input_history_is_not_changed():
    original = history()
    before = [c.model_dump() for c in original]
    mask_observations(original, {}, keep_last=1)
    assert [c.model_dump() for c in original] == before


def test_keep_last_below_one_is_refused():
    with pytest.raises(ValueError, match="keep_last"):
        mask_observations(history(), {}, keep_last=0)


def test_two_calls_in_one_turn_keep_their_own_paths():
    """The README error answers the first of two parallel read_file calls: it is about README.md,
    not about a.py, so a later read of a.py does not make it old news."""
    from google.genai import types

    both = [
        types.Content(
            role="model",
            parts=[
                types.Part.from_function_call(name="read_file", args={"path": p})
                for p in ("README.md", "a.py")
            ],
        ),
        types.Content(
            role="user",
            parts=[
                types.Part.from_function_response(name="read_file", response={"output": out})
                for out in ("ERROR: README.md does not exist", "import decimal\n" * 20)
            ],
        ),
    ]
    h = (
        agent_history()[:1]
        + both
        + agent_history(
            ("read_file", {"path": "a.py"}, "import decimal\n" * 20),
            ("read_file", {"path": "b.py"}, "x = 1\n" * 20),
        )[1:]
    )
    masked = mask_observations(h, {}, keep_last=1)
    assert (
        masked[2].parts[0].function_response.response["output"] == "ERROR: README.md does not exist"
    )
    assert masked[2].parts[1].function_response.response["output"].startswith("[masked ")

"""get(id, stream=True) re-attaches to a stored interaction's stream, resuming after
last_event_id."""

import pytest

from harness import MODEL

WORDS = "My dog is called Rex. " + "He likes long walks in the park. " * 4


def test_a_stored_stream_replays_with_the_same_events_and_ids(glass_box):
    first = list(glass_box.interactions.create(model=MODEL, input=WORDS, stream=True))
    again = list(glass_box.interactions.get(first[-1].interaction.id, stream=True))
    assert [(e.event_type, e.event_id) for e in again] == [
        (e.event_type, e.event_id) for e in first
    ]
    assert "user_input" not in {
        getattr(e.step, "type", "") for e in again if e.event_type == "step.start"
    }


def test_last_event_id_resumes_after_that_event(glass_box):
    first = list(glass_box.interactions.create(model=MODEL, input=WORDS, stream=True))
    rest = list(
        glass_box.interactions.get(
            first[-1].interaction.id, stream=True, last_event_id=first[3].event_id
        )
    )
    assert [e.event_id for e in rest] == [e.event_id for e in first[4:]]


def test_a_plain_interaction_can_be_streamed_back_too(glass_box):
    made = glass_box.interactions.create(model=MODEL, input=WORDS)
    events = list(glass_box.interactions.get(made.id, stream=True))
    text = "".join(e.delta.text for e in events if e.event_type == "step.delta")
    # (the SDK adds initial_input_tokens to a non-streamed create)
    replayed = events[-1].interaction.usage
    assert text == made.steps[-1].content[0].text
    assert (replayed.total_input_tokens, replayed.total_tokens) == (
        made.usage.total_input_tokens,
        made.usage.total_tokens,
    )


def test_an_unknown_last_event_id_is_a_400_naming_it(glass_box):
    made = glass_box.interactions.create(model=MODEL, input=WORDS)
    with pytest.raises(Exception) as caught:
        list(glass_box.interactions.get(made.id, stream=True, last_event_id="not-an-event"))
    assert (
        caught.value.status_code == 400 and "not-an-event" in caught.value.body["error"]["message"]
    )

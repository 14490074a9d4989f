"""client.aio.interactions on the glass box: create, stream, get and delete behave as their sync
twins."""

import asyncio

import pytest

from harness import MODEL
from harness.engine.reader import DONT_KNOW


def text_of(interaction):
    return interaction.steps[-1].content[0].text


def run(coroutine):
    return asyncio.run(coroutine)


def test_an_async_conversation_carries_its_history_as_the_sync_one_does(glass_box):
    async def conversation():
        first = await glass_box.aio.interactions.create(model=MODEL, input="My dog is called Rex.")
        second = await glass_box.aio.interactions.create(
            model=MODEL, input="What is my dog called?", previous_interaction_id=first.id
        )
        alone = await glass_box.aio.interactions.create(model=MODEL, input="What is my dog called?")
        return first, second, alone

    first, second, alone = run(conversation())
    assert first.status == "completed" and "Rex" in text_of(second) and text_of(alone) == DONT_KNOW
    sync_first = glass_box.interactions.create(model=MODEL, input="My dog is called Rex.")
    sync_second = glass_box.interactions.create(
        model=MODEL, input="What is my dog called?", previous_interaction_id=sync_first.id
    )
    assert text_of(sync_second) == text_of(second)  # the same answer whichever client asked
    assert sync_second.usage.total_input_tokens == second.usage.total_input_tokens


def test_async_get_and_delete_read_and_forget_the_stored_interaction(glass_box):
    async def lifecycle():
        made = await glass_box.aio.interactions.create(model=MODEL, input="My cat is called Tom.")
        stored = await glass_box.aio.interactions.get(made.id)
        await glass_box.aio.interactions.delete(made.id)
        return made, stored

    made, stored = run(lifecycle())
    assert stored.id == made.id and [s.type for s in stored.steps] == [
        "user_input",
        "thought",
        "model_output",
    ]
    with pytest.raises(Exception) as caught:
        run(glass_box.aio.interactions.get(made.id))
    assert caught.value.status_code == 404 and caught.value.body["error"]["code"] == "not_found"
    # deleted for the sync client too: one store behind both
    with pytest.raises(Exception) as caught:
        glass_box.interactions.get(made.id)
    assert caught.value.status_code == 404


def test_async_stream_sends_the_same_events_as_the_sync_stream(glass_box):
    words = "My dog is called Rex. " + "He likes long walks in the park. " * 4

    async def streamed():
        stream = await glass_box.aio.interactions.create(model=MODEL, input=words, stream=True)
        return [event async for event in stream]

    events = run(streamed())
    sync_events = list(glass_box.interactions.create(model=MODEL, input=words, stream=True))
    assert [e.event_type for e in events] == [e.event_type for e in sync_events]
    assert (
        events[0].event_type == "interaction.created"
        and events[-1].event_type == "interaction.completed"
    )
    text = "".join(e.delta.text for e in events if e.event_type == "step.delta")
    assert text == "".join(e.delta.text for e in sync_events if e.event_type == "step.delta")
    completed = events[-1].interaction
    assert completed.usage.total_input_tokens > 0
    # stored like a sync stream
    assert text_of(run(glass_box.aio.interactions.get(completed.id))) == text


def test_async_errors_are_the_sync_errors(glass_box):
    with pytest.raises(Exception) as caught:
        run(
            glass_box.aio.interactions.create(
                model=MODEL, input="And now?", previous_interaction_id="v1_unknown"
            )
        )
    assert caught.value.status_code == 404 and "v1_unknown" in caught.value.body["error"]["message"]
    with pytest.raises(Exception) as caught:
        run(
            glass_box.aio.interactions.create(
                agent="deep-research-pro-preview-12-2025", input="Research TPUs", background=True
            )
        )
    assert caught.value.status_code == 400 and "deep-research-pro-preview-12-2025" in str(
        caught.value
    )

"""The Interactions API on the glass box, through the SDK's client.interactions, as the August 2026
cookbook quickstarts use it (steps[-1].content[0].text, previous_interaction_id, function_result).
"""

import json

import pytest

from harness import MODEL
from harness.engine import interactions
from harness.engine.reader import DONT_KNOW

HOUSE = [
    {
        "type": "function",
        "name": "power_disco_ball",
        "description": "Powers the spinning disco ball.",
        "parameters": {
            "type": "object",
            "properties": {"power": {"type": "boolean"}},
            "required": ["power"],
        },
    },
    {
        "type": "function",
        "name": "dim_lights",
        "description": "Dim the lights.",
        "parameters": {
            "type": "object",
            "properties": {"brightness": {"type": "number"}},
            "required": ["brightness"],
        },
    },
]


def text_of(interaction):
    return interaction.steps[-1].content[0].text


def test_the_server_keeps_the_history_so_a_later_turn_recalls_it(glass_box):
    first = glass_box.interactions.create(model=MODEL, input="My dog is called Rex.")
    assert first.id and first.status == "completed" and first.steps[-1].type == "model_output"
    second = glass_box.interactions.create(
        model=MODEL, input="What is my dog called?", previous_interaction_id=first.id
    )
    assert "Rex" in text_of(second)
    alone = glass_box.interactions.create(model=MODEL, input="What is my dog called?")
    assert text_of(alone) == DONT_KNOW  # without the id, nothing carries over
    # the history was replayed and billed
    assert second.usage.total_input_tokens > alone.usage.total_input_tokens


def test_a_long_conversation_hits_the_implicit_cache_on_its_next_turn(glass_box):
    facts = " ".join(f"Fact {i}: the locker {i} holds item {i * 7}." for i in range(700))
    first = glass_box.interactions.create(model=MODEL, input=facts)
    assert first.usage.total_cached_tokens == 0
    second = glass_box.interactions.create(
        model=MODEL, input="Which item does locker 12 hold?", previous_interaction_id=first.id
    )
    assert 0 < second.usage.total_cached_tokens < second.usage.total_input_tokens
    assert second.usage.total_tokens == (
        second.usage.total_input_tokens
        + second.usage.total_output_tokens
        + second.usage.total_thought_tokens
    )


def test_system_instruction_and_generation_config_apply_to_their_interaction(glass_box):
    reply = glass_box.interactions.create(
        model=MODEL, input="What is your name?", system_instruction="Your name is Neko."
    )
    assert "Neko" in text_of(reply)
    numbered = glass_box.interactions.create(
        model=MODEL,
        input="Facts: 1. one.\n2. two.\n3. three.",
        generation_config={"stop_sequences": ["two"], "max_output_tokens": 50},
    )
    assert "two" not in text_of(numbered)


def test_get_returns_the_stored_interaction_with_its_input_and_delete_forgets_it(glass_box):
    made = glass_box.interactions.create(model=MODEL, input="My cat is called Tom.")
    stored = glass_box.interactions.get(made.id)
    assert [s.type for s in stored.steps] == ["user_input", "thought", "model_output"]
    glass_box.interactions.delete(made.id)
    with pytest.raises(Exception) as caught:
        glass_box.interactions.get(made.id)
    assert getattr(caught.value, "status_code", None) == 404 and "not found" in str(caught.value)
    with pytest.raises(Exception) as caught:
        glass_box.interactions.create(
            model=MODEL, input="And now?", previous_interaction_id=made.id
        )
    assert getattr(caught.value, "status_code", None) == 404


def test_store_false_keeps_nothing_to_continue_from(glass_box):
    made = glass_box.interactions.create(model=MODEL, input="Remember the word tulip.", store=False)
    with pytest.raises(Exception) as caught:
        glass_box.interactions.create(
            model=MODEL, input="Which word?", previous_interaction_id=made.id
        )
    assert getattr(caught.value, "status_code", None) == 404 and "store=false" in str(caught.value)


def test_function_calls_come_back_as_steps_and_their_results_end_the_turn(glass_box):
    interaction = glass_box.interactions.create(
        model=MODEL, input="Turn this place into a party!", tools=HOUSE
    )
    assert interaction.status == "requires_action"
    rounds = 0
    while any(s.type == "function_call" for s in interaction.steps) and rounds < 5:
        rounds += 1
        results = [
            {"type": "function_result", "name": s.name, "call_id": s.id, "result": "done"}
            for s in interaction.steps
            if s.type == "function_call"
        ]
        interaction = glass_box.interactions.create(
            model=MODEL, input=results, tools=HOUSE, previous_interaction_id=interaction.id
        )
    assert rounds == 1 and "dim_lights" in text_of(interaction)


def test_json_mode_through_response_format(glass_box):
    reply = glass_box.interactions.create(
        model=MODEL,
        input="My dog is called Rex. What is my dog called?",
        response_format={"type": "text", "mime_type": "application/json"},
    )
    assert json.loads(text_of(reply))


def test_retention_is_bounded_oldest_first(monkeypatch):
    monkeypatch.setattr(interactions, "MAX_STORED", 2)
    store = interactions.Interactions()
    answer = {
        "candidates": [{"content": {"role": "model", "parts": [{"text": "ok"}]}}],
        "modelVersion": MODEL,
        "usageMetadata": {"promptTokenCount": 1, "totalTokenCount": 1},
    }
    made = [
        store.create({"model": MODEL, "input": f"turn {i}"}, "v1", lambda *a: answer)["id"]
        for i in range(3)
    ]
    store.get(made[1]), store.get(made[2])
    with pytest.raises(Exception, match="not found"):
        store.get(made[0])


def test_a_request_without_model_or_input_is_a_clear_400(glass_box):
    with pytest.raises(Exception) as caught:
        glass_box.interactions.create(model=MODEL, input=[{"type": "hologram"}])
    assert getattr(caught.value, "status_code", None) == 400


def test_stream_true_sends_the_docs_events_and_the_text_joins_back(glass_box):
    stream = glass_box.interactions.create(
        model=MODEL,
        stream=True,
        input="My dog is called Rex. " + "He likes long walks in the park. " * 4,
    )
    events = list(stream)
    kinds = [e.event_type for e in events]
    assert kinds[:3] == ["interaction.created", "interaction.status_update", "step.start"]
    assert kinds[-2:] == ["step.stop", "interaction.completed"] and kinds.count("step.delta") > 1
    text = "".join(e.delta.text for e in events if e.event_type == "step.delta")
    completed = events[-1].interaction
    assert completed.status == "completed" and completed.usage.total_input_tokens > 0
    assert events[-2].usage == completed.usage  # the last step.stop carries the usage too
    # a streamed interaction is stored like any other
    stored = glass_box.interactions.get(completed.id)
    assert stored.steps[-1].content[0].text == text
    follow = glass_box.interactions.create(
        model=MODEL, input="What is my dog called?", previous_interaction_id=completed.id
    )
    assert "Rex" in text_of(follow)


def test_a_stored_interaction_expires_after_its_retention(glass_box):
    made = glass_box.interactions.create(model=MODEL, input="My cat is called Tom.")
    start = interactions.STORED.clock
    try:
        interactions.STORED.clock = lambda: start() + interactions.RETENTION_SECONDS - 60
        glass_box.interactions.get(made.id)  # still there a minute before the end
        interactions.STORED.clock = lambda: start() + interactions.RETENTION_SECONDS + 60
        with pytest.raises(Exception) as caught:
            glass_box.interactions.create(
                model=MODEL, input="And my cat?", previous_interaction_id=made.id
            )
        assert getattr(caught.value, "status_code", None) == 404
    finally:
        interactions.STORED.clock = start
    assert interactions.RETENTION_SECONDS == 55 * 24 * 3600  # the docs' paid tier


def test_background_with_store_false_is_a_400(glass_box):
    with pytest.raises(Exception) as caught:
        glass_box.interactions.create(model=MODEL, input="Hello", store=False, background=True)
    assert getattr(caught.value, "status_code", None) == 400 and "store=false" in str(caught.value)


def test_every_turn_of_a_chain_is_billed_on_its_whole_history_with_the_prefix_cached(glass_box):
    """The server replays the stored history on each turn: input grows, the cached share follows
    it."""
    facts = " ".join(f"Fact {i}: the locker {i} holds item {i * 7}." for i in range(700))
    turn = glass_box.interactions.create(model=MODEL, input=facts)
    usages = [turn.usage]
    for question in (
        "Which item does locker 3 hold?",
        "Which item does locker 9 hold?",
        "And locker 11?",
    ):
        turn = glass_box.interactions.create(
            model=MODEL, input=question, previous_interaction_id=turn.id
        )
        usages.append(turn.usage)
    inputs = [u.total_input_tokens for u in usages]
    assert inputs == sorted(inputs) and len(set(inputs)) == len(inputs)
    # all of the previous turn's context is cached on the next
    for before, after in zip(usages, usages[1:]):
        assert after.total_cached_tokens >= before.total_input_tokens

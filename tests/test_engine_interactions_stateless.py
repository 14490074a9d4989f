"""A conversation the client keeps (store=false, its steps sent back as the next input), and the
thought step that carries the model's signature, as Gemini's Interactions API has them."""

import pytest

from harness import MODEL

WEATHER = [
    {
        "type": "function",
        "name": "get_weather",
        "description": "Get current weather for a location",
        "parameters": {
            "type": "object",
            "properties": {"location": {"type": "string", "description": "City name"}},
            "required": ["location"],
        },
    }
]


def user(text):
    return {"type": "user_input", "content": [{"type": "text", "text": text}]}


def sent_back(steps):
    return [step.model_dump(exclude_none=True) for step in steps]


def results_for(steps, value):
    return [
        {
            "type": "function_result",
            "name": s.name,
            "call_id": s.id,
            "result": {"temperature": value},
        }
        for s in steps
        if s.type == "function_call"
    ]


def test_a_thought_step_with_the_signature_comes_before_the_call_and_the_answer(glass_box):
    """The August cookbook's Function_calling saved output lists 'thought' then 'function_call'."""
    asked = glass_box.interactions.create(
        model=MODEL, input="What's the weather in Tokyo?", tools=WEATHER
    )
    assert [s.type for s in asked.steps] == ["thought", "function_call"] and asked.steps[
        0
    ].signature
    told = glass_box.interactions.create(model=MODEL, input="My dog is called Rex.")
    assert [s.type for s in told.steps] == ["thought", "model_output"]


def test_a_client_kept_conversation_with_a_function_call_ends_with_the_result(glass_box):
    history = [user("What's the weather in Tokyo?")]
    asked = glass_box.interactions.create(model=MODEL, input=history, tools=WEATHER, store=False)
    history += sent_back(asked.steps) + results_for(asked.steps, "22C")
    answered = glass_box.interactions.create(model=MODEL, input=history, tools=WEATHER, store=False)
    assert answered.status == "completed" and "22C" in answered.steps[-1].content[0].text


def test_parallel_calls_sent_back_are_one_model_turn_and_their_results_one_user_turn(glass_box):
    history = [user("What's the weather in Paris and London?")]
    asked = glass_box.interactions.create(model=MODEL, input=history, tools=WEATHER, store=False)
    calls = [s for s in asked.steps if s.type == "function_call"]
    assert len(calls) == 2
    history += sent_back(asked.steps) + results_for(asked.steps, "18C")
    answered = glass_box.interactions.create(model=MODEL, input=history, tools=WEATHER, store=False)
    assert answered.status == "completed" and "18C" in answered.steps[-1].content[0].text


def test_a_call_sent_back_without_its_thought_step_is_geminis_missing_signature_400(glass_box):
    call = {
        "type": "function_call",
        "id": "call_1",
        "name": "get_weather",
        "arguments": {"location": "Tokyo"},
    }
    result = {
        "type": "function_result",
        "name": "get_weather",
        "call_id": "call_1",
        "result": {"temperature": "22C"},
    }
    with pytest.raises(Exception) as caught:
        glass_box.interactions.create(
            model=MODEL,
            tools=WEATHER,
            store=False,
            input=[user("What's the weather in Tokyo?"), call, result],
        )
    assert caught.value.status_code == 400 and "missing a thought_signature" in str(caught.value)
    # the documented dummy
    dummy = {
        "type": "thought",
        "signature": "skip_thought_signature_validator",
    }
    answered = glass_box.interactions.create(
        model=MODEL,
        tools=WEATHER,
        store=False,
        input=[user("What's the weather in Tokyo?"), dummy, call, result],
    )
    assert "22C" in answered.steps[-1].content[0].text


def test_thinking_summaries_auto_fills_the_thought_steps_summary_and_none_leaves_it_empty(
    glass_box,
):
    shown = glass_box.interactions.create(
        model=MODEL,
        input="What's the weather in Tokyo?",
        tools=WEATHER,
        generation_config={"thinking_summaries": "auto"},
    )
    thought = shown.steps[0]
    assert (
        thought.type == "thought" and thought.signature and "glass box" in thought.summary[0].text
    )
    assert [s.type for s in shown.steps].count("thought") == 1
    hidden = glass_box.interactions.create(
        model=MODEL,
        input="What's the weather in Tokyo?",
        tools=WEATHER,
        generation_config={"thinking_summaries": "none"},
    )
    assert hidden.steps[0].type == "thought" and not hidden.steps[0].summary

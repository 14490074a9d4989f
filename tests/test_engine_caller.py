"""Tools no scenario knows: the glass box calls a declared function with schema-valid arguments, or reads."""
from google.genai import types

from harness import MODEL
from harness.engine import caller, reader

FORECASTS = []


def get_forecast(city: str, days: int = 1) -> str:
    """The weather forecast for a city, for a number of days."""
    FORECASTS.append((city, days))
    return f"The weather in {city} for {days} day(s): sunny, 21 C."


def user(text):
    return {"role": "user", "parts": [{"text": text}]}


def test_the_sdks_automatic_function_calling_runs_a_plain_python_function(glass_box):
    FORECASTS.clear()
    chat = glass_box.chats.create(model=MODEL, config=types.GenerateContentConfig(tools=[get_forecast]))
    reply = chat.send_message("Use get_forecast for 'Lyon', days: 3. What is the weather?")
    assert FORECASTS == [("Lyon", 3)]  # the function really ran, with the values the message shows
    assert reply.text == 'From what I can see: "The weather in Lyon for 3 day(s): sunny, 21 C."'


def test_mode_any_calls_a_declared_function_even_unnamed(glass_box):
    config = types.GenerateContentConfig(
        tools=[get_forecast], automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True),
        tool_config=types.ToolConfig(function_calling_config=types.FunctionCallingConfig(mode="ANY")))
    reply = glass_box.models.generate_content(model=MODEL, contents="Will I need an umbrella in Paris?", config=config)
    [call] = reply.function_calls
    assert call.name == "get_forecast" and call.args == {"city": "Paris"}  # days is optional and not shown


def test_without_mode_any_or_a_named_function_the_reader_answers(glass_box):
    config = types.GenerateContentConfig(tools=[get_forecast])
    reply = glass_box.models.generate_content(model=MODEL, contents="Will I need an umbrella in Paris?", config=config)
    assert not reply.function_calls and reply.text == reader.DONT_KNOW


def test_arguments_follow_the_schema_types():
    schema = {"type": "OBJECT", "required": ["unit", "count", "exact", "tags"],
              "properties": {"unit": {"type": "STRING", "enum": ["celsius", "kelvin"]}, "count": {"type": "INTEGER"},
                             "exact": {"type": "BOOLEAN"}, "tags": {"type": "ARRAY", "items": {"type": "STRING"}},
                             "note": {"type": "STRING"}}}
    args = caller.arguments(schema, "Give me 4 readings in kelvin, exact: yes.")
    assert args == {"unit": "kelvin", "count": 4, "exact": True, "tags": []}


def test_allowed_function_names_restrict_the_choice():
    request = {"tools": [{"functionDeclarations": [{"name": "first"}, {"name": "second"}]}],
               "toolConfig": {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["second"]}},
               "contents": [user("Go.")]}
    assert caller.act(request) == [{"functionCall": {"name": "second", "args": {}}}]


def test_mode_none_never_calls():
    request = {"tools": [{"functionDeclarations": [{"name": "first"}]}],
               "toolConfig": {"functionCallingConfig": {"mode": "NONE"}}, "contents": [user("Call first now.")]}
    assert "text" in caller.act(request)[0]

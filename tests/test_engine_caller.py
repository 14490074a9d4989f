"""Tools no scenario knows: function calling as a model does it (AUTO, ANY, NONE), by rules, end to end."""
from google.genai import types

from harness import MODEL
from harness.engine import call_arguments, caller, reader

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
    assert reply.text == 'From get_forecast: "The weather in Lyon for 3 day(s): sunny, 21 C."'


def test_mode_any_calls_a_declared_function_even_unnamed(glass_box):
    config = types.GenerateContentConfig(
        tools=[get_forecast], automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True),
        tool_config=types.ToolConfig(function_calling_config=types.FunctionCallingConfig(mode="ANY")))
    reply = glass_box.models.generate_content(model=MODEL, contents="Will I need an umbrella in Paris?", config=config)
    [call] = reply.function_calls
    assert call.name == "get_forecast" and call.args == {"city": "Paris"}  # days is optional and not shown


def test_a_request_no_function_serves_gets_the_reader(glass_box):
    config = types.GenerateContentConfig(tools=[get_forecast])
    reply = glass_box.models.generate_content(model=MODEL, contents="Who wrote Hamlet?", config=config)
    assert not reply.function_calls and reply.text == reader.DONT_KNOW


def test_arguments_follow_the_schema_types():
    schema = {"type": "OBJECT", "required": ["unit", "count", "exact", "tags"],
              "properties": {"unit": {"type": "STRING", "enum": ["celsius", "kelvin"]}, "count": {"type": "INTEGER"},
                             "exact": {"type": "BOOLEAN"}, "tags": {"type": "ARRAY", "items": {"type": "STRING"}},
                             "note": {"type": "STRING"}}}
    args = call_arguments.arguments(schema, "Give me 4 readings in kelvin, exact: yes.")
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


# What a student copying the cookbook meets (issue 20): AUTO calls what the request asks for.
WEATHER_CALLS = []


def get_weather(location: str) -> str:
    """Gets the current weather for a location."""
    WEATHER_CALLS.append(location)
    return f"It is sunny and 21 C in {location}."


def test_auto_calls_the_function_the_question_asks_for_and_answers_from_its_result(glass_box):
    WEATHER_CALLS.clear()
    reply = glass_box.models.generate_content(model=MODEL, contents="What's the weather in Paris?",
                                              config=types.GenerateContentConfig(tools=[get_weather]))
    assert WEATHER_CALLS == ["Paris"]
    assert "sunny and 21 C in Paris" in reply.text  # the returned value, quoted
    [call] = reply.automatic_function_calling_history[1].parts
    assert call.function_call.name == "get_weather" and call.thought_signature  # Gemini 3+ signs its calls


def test_a_request_for_two_things_makes_two_calls_at_once():
    declaration = {"name": "get_weather", "description": "Gets the weather.",
                   "parameters": {"type": "OBJECT", "required": ["location"],
                                  "properties": {"location": {"type": "STRING"}}}}
    request = {"tools": [{"functionDeclarations": [declaration]}],
               "contents": [user("What's the weather in Paris and in London?")]}
    assert [p["functionCall"]["args"] for p in caller.act(request)] == [{"location": "Paris"}, {"location": "London"}]


PARTY = []


def power_disco_ball(power: bool) -> bool:
    """Powers the spinning disco ball."""
    PARTY.append("disco ball" if power else "disco ball off")
    return True


def start_music(energetic: bool, loud: bool, bpm: int) -> str:
    """Play some music matching the specified parameters."""
    PARTY.append(f"music energetic={energetic} loud={loud}")
    return "Never gonna give you up."


def dim_lights(brightness: float) -> bool:
    """Dim the lights."""
    PARTY.append("lights dimmed")
    return True


def test_the_cookbooks_party_makes_each_call_once_then_answers(glass_box):
    PARTY.clear()
    config = types.GenerateContentConfig(tools=[power_disco_ball, start_music, dim_lights])
    reply = glass_box.models.generate_content(model=MODEL, contents="Turn this place into a party!", config=config)
    assert PARTY == ["disco ball", "music energetic=True loud=True", "lights dimmed"]
    assert "Never gonna give you up." in reply.text and not reply.function_calls


def test_mode_none_never_calls_even_when_asked(glass_box):
    PARTY.clear()
    config = {"tools": [power_disco_ball, start_music, dim_lights],
              "tool_config": {"function_calling_config": {"mode": "NONE"}}}
    reply = glass_box.models.generate_content(model=MODEL, contents="Turn this place into a party!", config=config)
    assert PARTY == [] and not reply.function_calls


def test_snake_case_inside_tool_config_is_read_as_the_rest_notebooks_send_it():
    request = {"tools": [{"functionDeclarations": [{"name": "first"}, {"name": "second"}]}],
               "tool_config": {"function_calling_config": {"mode": "ANY", "allowed_function_names": ["second"]}},
               "contents": [user("Go.")]}
    assert caller.act(request) == [{"functionCall": {"name": "second", "args": {}}}]


def test_allowed_function_names_bar_a_function_even_when_asked_for():
    request = {"tools": [{"functionDeclarations": [{"name": "get_weather", "description": "The weather."},
                                                   {"name": "get_time", "description": "The time."}]}],
               "toolConfig": {"functionCallingConfig": {"mode": "AUTO", "allowedFunctionNames": ["get_time"]}},
               "contents": [user("What's the weather like?")]}
    assert "functionCall" not in caller.act(request)[0]


def test_steps_asked_in_order_are_called_one_a_round_with_the_results_before_them():
    movies = {"name": "find_movies", "description": "find movie titles currently playing in theaters",
              "parameters": {"type": "object", "required": ["location"], "properties": {"location": {"type": "string"}}}}
    theaters = {"name": "find_theaters", "description": "Find theaters showing a movie.",
                "parameters": {"type": "object", "required": ["location", "movie"],
                               "properties": {"location": {"type": "string"}, "movie": {"type": "string"}}}}
    ask = user("Find movies playing in Mountain View, CA.\nThen, find the theaters showing those movies.")
    request = {"tools": [{"functionDeclarations": [movies, theaters]}], "contents": [ask]}
    [first] = caller.act(request)
    assert first["functionCall"] == {"name": "find_movies", "args": {"location": "Mountain View, CA"}}
    request["contents"] += [{"role": "model", "parts": [first]}, {"role": "user", "parts": [
        {"functionResponse": {"name": "find_movies", "response": {"result": "['Barbie']"}}}]}]
    [second] = caller.act(request)
    assert second["functionCall"]["name"] == "find_theaters"


def test_arguments_respect_enums_numbers_and_negation():
    schema = {"type": "OBJECT", "required": ["unit", "power", "a", "b"],
              "properties": {"unit": {"type": "STRING", "enum": ["celsius", "fahrenheit"]},
                             "power": {"type": "BOOLEAN"}, "a": {"type": "INTEGER"}, "b": {"type": "INTEGER"}}}
    assert call_arguments.arguments(schema, "Turn off the heater, set 19 then 21 in fahrenheit.") == \
        {"unit": "fahrenheit", "power": False, "a": 19, "b": 21}

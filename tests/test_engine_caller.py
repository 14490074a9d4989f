"""Tools no scenario knows: function calling as a model does it (AUTO, ANY, NONE), by rules, end
to end."""

from google.genai import types

from harness import MODEL
from harness.engine import reader
from harness.engine.compat import call_arguments, caller

FORECASTS = []


def get_forecast(city: str, days: int = 1) -> str:
    """The weather forecast for a city, for a number of days."""
    FORECASTS.append((city, days))
    return f"The weather in {city} for {days} day(s): sunny, 21 C."


def user(text):
    return {"role": "user", "parts": [{"text": text}]}


def test_the_sdks_automatic_function_calling_runs_a_plain_python_function(glass_box):
    FORECASTS.clear()
    chat = glass_box.chats.create(
        model=MODEL, config=types.GenerateContentConfig(tools=[get_forecast])
    )
    reply = chat.send_message("Use get_forecast for 'Lyon', days: 3. What is the weather?")
    assert FORECASTS == [("Lyon", 3)]  # the function really ran, with the values the message shows
    assert reply.text == 'From get_forecast: "The weather in Lyon for 3 day(s): sunny, 21 C."'


def test_mode_any_calls_a_declared_function_even_unnamed(glass_box):
    config = types.GenerateContentConfig(
        tools=[get_forecast],
        automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True),
        tool_config=types.ToolConfig(
            function_calling_config=types.FunctionCallingConfig(mode="ANY")
        ),
    )
    reply = glass_box.models.generate_content(
        model=MODEL, contents="Will I need an umbrella in Paris?", config=config
    )
    [call] = reply.function_calls
    # days is optional and not shown
    assert call.name == "get_forecast" and call.args == {"city": "Paris"}


def test_a_request_no_function_serves_gets_the_reader(glass_box):
    config = types.GenerateContentConfig(tools=[get_forecast])
    reply = glass_box.models.generate_content(
        model=MODEL, contents="Who wrote Hamlet?", config=config
    )
    assert not reply.function_calls and reply.text == reader.DONT_KNOW


def test_arguments_follow_the_schema_types():
    schema = {
        "type": "OBJECT",
        "required": ["unit", "count", "exact", "tags"],
        "properties": {
            "unit": {"type": "STRING", "enum": ["celsius", "kelvin"]},
            "count": {"type": "INTEGER"},
            "exact": {"type": "BOOLEAN"},
            "tags": {"type": "ARRAY", "items": {"type": "STRING"}},
            "note": {"type": "STRING"},
        },
    }
    args = call_arguments.arguments(schema, "Give me 4 readings in kelvin, exact: yes.")
    assert args == {"unit": "kelvin", "count": 4, "exact": True, "tags": []}


def test_allowed_function_names_restrict_the_choice():
    request = {
        "tools": [{"functionDeclarations": [{"name": "first"}, {"name": "second"}]}],
        "toolConfig": {
            "functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["second"]}
        },
        "contents": [user("Go.")],
    }
    assert caller.act(request) == [{"functionCall": {"name": "second", "args": {}}}]


def test_mode_none_never_calls():
    request = {
        "tools": [{"functionDeclarations": [{"name": "first"}]}],
        "toolConfig": {"functionCallingConfig": {"mode": "NONE"}},
        "contents": [user("Call first now.")],
    }
    assert "text" in caller.act(request)[0]


# What a student copying the cookbook meets (issue 20): AUTO calls what the request asks for.
WEATHER_CALLS = []


def get_weather(location: str) -> str:
    """Gets the current weather for a location."""
    WEATHER_CALLS.append(location)
    return f"It is sunny and 21 C in {location}."


def test_auto_calls_the_function_the_question_asks_for_and_answers_from_its_result(glass_box):
    WEATHER_CALLS.clear()
    reply = glass_box.models.generate_content(
        model=MODEL,
        contents="What's the weather in Paris?",
        config=types.GenerateContentConfig(tools=[get_weather]),
    )
    assert WEATHER_CALLS == ["Paris"]
    assert "sunny and 21 C in Paris" in reply.text  # the returned value, quoted
    [call] = reply.automatic_function_calling_history[1].parts
    # Gemini 3+ signs its calls
    assert call.function_call.name == "get_weather" and call.thought_signature


def test_a_request_for_two_things_makes_two_calls_at_once():
    declaration = {
        "name": "get_weather",
        "description": "Gets the weather.",
        "parameters": {
            "type": "OBJECT",
            "required": ["location"],
            "properties": {"location": {"type": "STRING"}},
        },
    }
    request = {
        "tools": [{"functionDeclarations": [declaration]}],
        "contents": [user("What's the weather in Paris and in London?")],
    }
    assert [p["functionCall"]["args"] for p in caller.act(request)] == [
        {"location": "Paris"},
        {"location": "London"},
    ]


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
    reply = glass_box.models.generate_content(
        model=MODEL, contents="Turn this place into a party!", config=config
    )
    assert PARTY == ["disco ball", "music energetic=True loud=True", "lights dimmed"]
    assert "Never gonna give you up." in reply.text and not reply.function_calls


def test_mode_none_never_calls_even_when_asked(glass_box):
    PARTY.clear()
    config = {
        "tools": [power_disco_ball, start_music, dim_lights],
        "tool_config": {"function_calling_config": {"mode": "NONE"}},
    }
    reply = glass_box.models.generate_content(
        model=MODEL, contents="Turn this place into a party!", config=config
    )
    assert PARTY == [] and not reply.function_calls


def test_snake_case_inside_tool_config_is_read_as_the_rest_notebooks_send_it():
    request = {
        "tools": [{"functionDeclarations": [{"name": "first"}, {"name": "second"}]}],
        "tool_config": {
            "function_calling_config": {"mode": "ANY", "allowed_function_names": ["second"]}
        },
        "contents": [user("Go.")],
    }
    assert caller.act(request) == [{"functionCall": {"name": "second", "args": {}}}]


def test_allowed_function_names_bar_a_function_even_when_asked_for():
    request = {
        "tools": [
            {
                "functionDeclarations": [
                    {"name": "get_weather", "description": "The weather."},
                    {"name": "get_time", "description": "The time."},
                ]
            }
        ],
        "toolConfig": {
            "functionCallingConfig": {"mode": "AUTO", "allowedFunctionNames": ["get_time"]}
        },
        "contents": [user("What's the weather like?")],
    }
    assert "functionCall" not in caller.act(request)[0]


def test_steps_asked_in_order_are_called_one_a_round_with_the_results_before_them():
    movies = {
        "name": "find_movies",
        "description": "find movie titles currently playing in theaters",
        "parameters": {
            "type": "object",
            "required": ["location"],
            "properties": {"location": {"type": "string"}},
        },
    }
    theaters = {
        "name": "find_theaters",
        "description": "Find theaters showing a movie.",
        "parameters": {
            "type": "object",
            "required": ["location", "movie"],
            "properties": {"location": {"type": "string"}, "movie": {"type": "string"}},
        },
    }
    ask = user(
        "Find movies playing in Mountain View, CA.\nThen, find the theaters showing those movies."
    )
    request = {"tools": [{"functionDeclarations": [movies, theaters]}], "contents": [ask]}
    [first] = caller.act(request)
    assert first["functionCall"] == {
        "name": "find_movies",
        "args": {"location": "Mountain View, CA"},
    }
    request["contents"] += [
        {"role": "model", "parts": [first]},
        {
            "role": "user",
            "parts": [
                {"functionResponse": {"name": "find_movies", "response": {"result": "['Barbie']"}}}
            ],
        },
    ]
    [second] = caller.act(request)
    assert second["functionCall"]["name"] == "find_theaters"


def test_arguments_respect_enums_numbers_and_negation():
    schema = {
        "type": "OBJECT",
        "required": ["unit", "power", "a", "b"],
        "properties": {
            "unit": {"type": "STRING", "enum": ["celsius", "fahrenheit"]},
            "power": {"type": "BOOLEAN"},
            "a": {"type": "INTEGER"},
            "b": {"type": "INTEGER"},
        },
    }
    assert call_arguments.arguments(
        schema, "Turn off the heater, set 19 then 21 in fahrenheit."
    ) == {"unit": "fahrenheit", "power": False, "a": 19, "b": 21}


# A spread of client programs (issue 20): the cookbook's function-calling quickstart (June 2026) and
# the docs' examples, with what Gemini's saved outputs show it does.
def declared(*declarations, mode=None, contents=None, text=""):
    request = {
        "tools": [{"functionDeclarations": list(declarations)}],
        "contents": contents or [user(text)],
    }
    if mode:
        request["toolConfig"] = {"functionCallingConfig": {"mode": mode}}
    return request


def calls_of(parts):
    return [
        (p["functionCall"]["name"], p["functionCall"]["args"]) for p in parts if "functionCall" in p
    ]


WEATHER = {
    "name": "get_weather",
    "description": "Get the current weather in a given location.",
    "parameters": {
        "type": "object",
        "required": ["location"],
        "properties": {
            "location": {
                "type": "string",
                "description": "The city and state, e.g. San Francisco, CA",
            }
        },
    },
}


def test_a_list_of_places_makes_one_parallel_call_each():
    parts = caller.act(declared(WEATHER, text="What's the weather in Paris, London and Tokyo?"))
    assert calls_of(parts) == [
        ("get_weather", {"location": city}) for city in ("Paris", "London", "Tokyo")
    ]


def multiply(a: float, b: float):
    """returns a * b."""
    return a * b


def add(a: float, b: float):
    """returns a + b."""
    return a + b


def test_each_asks_for_a_product_and_the_answer_quotes_it(glass_box):
    chat = glass_box.chats.create(model=MODEL, config={"tools": [add, multiply]})
    reply = chat.send_message(
        "I have 57 cats, each owns 44 mittens, how many mittens is that in total?"
    )
    call = chat.get_history()[1].parts[0].function_call
    assert (call.name, call.args) == ("multiply", {"a": 57, "b": 44}) and "2508" in reply.text


THEATERS = {
    "name": "find_theaters",
    "description": (
        "Find theaters based on location and optionally movie title "
        "which are currently playing in theaters."
    ),
    "parameters": {
        "type": "object",
        "required": ["location", "movie"],
        "properties": {
            "location": {
                "type": "string",
                "description": "The city and state, e.g. San Francisco, CA",
            },
            "movie": {"type": "string", "description": "Any movie title"},
        },
    },
}
SHOWTIMES = {
    "name": "get_showtimes",
    "description": "Find the start times for movies playing in a specific theater.",
    "parameters": {
        "type": "object",
        "required": ["location", "movie", "theater", "date"],
        "properties": {
            name: {"type": "string"} for name in ("location", "movie", "theater", "date")
        },
    },
}


def test_the_function_named_by_the_request_wins_over_one_that_only_shares_a_stem():
    parts = caller.act(
        declared(
            SHOWTIMES, THEATERS, text="Which theaters in Mountain View, CA show the Barbie movie?"
        )
    )
    assert calls_of(parts) == [
        ("find_theaters", {"location": "Mountain View, CA", "movie": "Barbie"})
    ]


def test_a_later_step_takes_its_values_from_the_result_of_the_function_named_like_them():
    contents = [
        user("Find showtimes in Mountain View, CA on 01/01/2025 for what find_theaters gave.")
    ]
    contents += [
        {"role": "model", "parts": [{"functionCall": {"name": "find_theaters", "args": {}}}]},
        {
            "role": "user",
            "parts": [
                {
                    "functionResponse": {
                        "name": "find_theaters",
                        "response": {"result": ["Googleplex 16", "Android Theatre"]},
                    }
                }
            ],
        },
    ]
    [(name, args)] = calls_of(caller.act(declared(SHOWTIMES, contents=contents)))
    assert (
        name == "get_showtimes"
        and args["theater"] == "Googleplex 16"
        and args["date"] == "01/01/2025"
    )


PARTY_DECLARATIONS = [
    {
        "name": "power_disco_ball",
        "description": "Powers the spinning disco ball.",
        "parameters": {
            "type": "object",
            "required": ["power"],
            "properties": {"power": {"type": "boolean"}},
        },
    },
    {
        "name": "start_music",
        "description": "Play some music matching the specified parameters.",
        "parameters": {
            "type": "object",
            "required": ["energetic"],
            "properties": {
                "energetic": {
                    "type": "boolean",
                    "description": "Whether the music is energetic or not.",
                }
            },
        },
    },
    {
        "name": "dim_lights",
        "description": "Dim the lights.",
        "parameters": {
            "type": "object",
            "required": ["brightness"],
            "properties": {"brightness": {"type": "number"}},
        },
    },
]


def test_mode_any_makes_the_same_three_party_calls_each_round_as_gemini_does():
    request = declared(*PARTY_DECLARATIONS, mode="ANY", text="Turn this place into a party!")
    first = caller.act(request)
    assert [name for name, _ in calls_of(first)] == [
        "power_disco_ball",
        "start_music",
        "dim_lights",
    ]
    request["contents"] += [
        {"role": "model", "parts": first},
        {
            "role": "user",
            "parts": [
                {"functionResponse": {"name": name, "response": {"result": True}}}
                for name, _ in calls_of(first)
            ],
        },
    ]
    assert calls_of(caller.act(request)) == calls_of(first)  # ANY never answers in text


def test_names_joined_by_and_stay_one_call_and_fill_a_list():
    meeting = {
        "name": "schedule_meeting",
        "description": "Schedules a meeting with specified attendees at a given time and date.",
        "parameters": {
            "type": "object",
            "required": ["attendees", "date", "time"],
            "properties": {
                "attendees": {"type": "array", "items": {"type": "string"}},
                "date": {"type": "string"},
                "time": {"type": "string"},
            },
        },
    }
    text = "Schedule a meeting with Bob and Alice for 03/27/2025 at 10:00 AM about the Q3 planning."
    assert calls_of(caller.act(declared(meeting, text=text))) == [
        (
            "schedule_meeting",
            {"attendees": ["Bob", "Alice"], "date": "03/27/2025", "time": "10:00 AM"},
        )
    ]


def test_an_enum_value_named_by_the_request_selects_the_function_and_fills_it():
    thermostat = {
        "name": "set_thermostat",
        "description": "Set the thermostat.",
        "parameters": {
            "type": "OBJECT",
            "required": ["mode", "temperature"],
            "properties": {
                "mode": {"type": "STRING", "enum": ["cool", "heat", "off"]},
                "temperature": {"type": "INTEGER"},
            },
        },
    }
    assert calls_of(
        caller.act(declared(thermostat, text="Please heat the house to 21 degrees."))
    ) == [("set_thermostat", {"mode": "heat", "temperature": 21})]


def test_a_clause_that_restates_the_same_request_with_no_value_makes_no_second_call():
    movies = {
        "name": "find_movies",
        "description": "find movie titles currently playing in theaters",
        "parameters": {
            "type": "object",
            "required": ["location"],
            "properties": {"location": {"type": "string"}},
        },
    }
    text = "Find comedy movies playing in Mountain View, CA.\nFirst, find the movie titles."
    assert calls_of(caller.act(declared(movies, text=text))) == [
        ("find_movies", {"location": "Mountain View, CA"})
    ]


def test_travel_asks_for_a_destination_and_an_optional_place_is_filled_when_shown():
    destination = {
        "name": "get_destination",
        "description": "Get the destination that the user wants to go to",
        "parameters": {
            "type": "OBJECT",
            "properties": {
                "destination": {
                    "type": "STRING",
                    "description": "Destination that the user wants to go to",
                }
            },
        },
    }
    assert calls_of(caller.act(declared(destination, text="I'd like to travel to Paris."))) == [
        ("get_destination", {"destination": "Paris"})
    ]

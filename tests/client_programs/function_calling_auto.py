"""Automatic function calling with plain Python functions: the SDK runs them and the model
answers."""

from google import genai
from google.genai import types

calls = []


def get_current_temperature(location: str) -> dict:
    """Gets the current temperature for a given location.

    Args:
        location: The city name, e.g. San Francisco.
    """
    calls.append(("get_current_temperature", location))
    return {"location": location, "temperature_celsius": 21}


def get_time(city: str) -> str:
    """Returns the local time in a city."""
    calls.append(("get_time", city))
    return "14:05"


client = genai.Client()
config = types.GenerateContentConfig(tools=[get_current_temperature, get_time])
response = client.models.generate_content(
    model="gemini-3.8-flash", contents="What's the temperature in London?", config=config
)
print("answer:", response.text)
print("calls made:", calls)
afc = response.automatic_function_calling_history
print(
    "afc history:",
    [
        (
            c.role,
            [
                (
                    p.function_call.name
                    if p.function_call
                    else ("response" if p.function_response else "text")
                )
                for p in c.parts
            ],
        )
        for c in afc
    ],
)

chat = client.chats.create(model="gemini-3.8-flash", config=config)
first = chat.send_message("What time is it in Tokyo?")
second = chat.send_message("And the temperature in Paris?")
print("chat 1:", first.text)
print("chat 2:", second.text)
print("calls made:", calls)
print("history roles:", [c.role for c in chat.get_history()])

"""Parallel calls: one request asks for three cities; the SDK runs all three and the model
answers."""

from google import genai
from google.genai import types

seen = []


def get_weather(city: str) -> str:
    """Gets today's weather for a city."""
    seen.append(city)
    return {"Paris": "sunny, 18C", "London": "rain, 12C", "Tokyo": "cloudy, 21C"}.get(
        city, "unknown"
    )


client = genai.Client()
manual = client.models.generate_content(
    model="gemini-3.8-flash",
    contents="What's the weather in Paris, London and Tokyo?",
    config=types.GenerateContentConfig(
        tools=[get_weather],
        automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True),
    ),
)
parts = manual.candidates[0].content.parts
print("calls:", [(p.function_call.name, p.function_call.args) for p in parts])
print("signatures:", [p.thought_signature is not None for p in parts])

chat = client.chats.create(
    model="gemini-3.8-flash", config=types.GenerateContentConfig(tools=[get_weather])
)
answer = chat.send_message("What's the weather in Paris, London and Tokyo?")
print("ran:", seen)
print("answer:", answer.text)

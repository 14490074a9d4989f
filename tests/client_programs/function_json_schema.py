"""A function declared with parameters_json_schema (plain JSON Schema) and the call it gets."""

from google import genai
from google.genai import types

client = genai.Client()
book_flight = types.FunctionDeclaration(
    name="book_flight",
    description="Books a flight to a destination city on a date.",
    parameters_json_schema={
        "type": "object",
        "properties": {
            "destination": {"type": "string", "description": "The destination city."},
            "date": {"type": "string", "description": "The date of the flight, YYYY-MM-DD."},
            "passengers": {"type": "integer", "minimum": 1},
        },
        "required": ["destination", "date"],
        "additionalProperties": False,
    },
)
response = client.models.generate_content(
    model="gemini-3.8-flash",
    contents="Book a flight to Madrid on 2026-12-20 for 2 passengers.",
    config=types.GenerateContentConfig(tools=[types.Tool(function_declarations=[book_flight])]),
)
calls = response.function_calls or []
for call in calls:
    print(call.name, call.args)

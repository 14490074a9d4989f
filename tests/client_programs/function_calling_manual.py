"""Function calling by hand: FunctionDeclaration dicts, the call read, run, and its response sent
back."""

from google import genai
from google.genai import types

client = genai.Client()
set_light = {
    "name": "set_light_values",
    "description": "Sets the brightness and color temperature of a light.",
    "parameters": {
        "type": "object",
        "properties": {
            "brightness": {"type": "integer", "description": "Light level from 0 to 100."},
            "color_temp": {
                "type": "string",
                "enum": ["daylight", "cool", "warm"],
                "description": "Color temperature of the light fixture.",
            },
        },
        "required": ["brightness", "color_temp"],
    },
}
tools = [types.Tool(function_declarations=[set_light])]
contents = [
    types.Content(role="user", parts=[types.Part(text="Turn the lights down to 20, warm please.")])
]
response = client.models.generate_content(
    model="gemini-3.8-flash", contents=contents, config=types.GenerateContentConfig(tools=tools)
)
call = response.function_calls[0]
print("call:", call.name, call.args, "id:", call.id)
signed = response.candidates[0].content.parts[0].thought_signature is not None
print("first part signed:", signed)

result = {
    "brightness": call.args.get("brightness"),
    "colorTemperature": call.args.get("color_temp"),
    "ok": True,
}
contents.append(response.candidates[0].content)
contents.append(
    types.Content(
        role="user", parts=[types.Part.from_function_response(name=call.name, response=result)]
    )
)
final = client.models.generate_content(
    model="gemini-3.8-flash", contents=contents, config=types.GenerateContentConfig(tools=tools)
)
print("final:", final.text)

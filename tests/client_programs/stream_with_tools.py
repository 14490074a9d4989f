"""generate_content_stream with a declared function: the call arrives in a chunk, whole."""

from google import genai
from google.genai import types

client = genai.Client()
alarm = types.FunctionDeclaration(
    name="set_alarm",
    description="Sets an alarm at a clock time.",
    parameters={
        "type": "OBJECT",
        "properties": {"time": {"type": "STRING", "description": "HH:MM"}},
        "required": ["time"],
    },
)
calls = []
for chunk in client.models.generate_content_stream(
    model="gemini-3.8-flash",
    contents="Set an alarm for 06:30 please.",
    config=types.GenerateContentConfig(tools=[types.Tool(function_declarations=[alarm])]),
):
    calls.extend(chunk.function_calls or [])
    print("chunk:", chunk.function_calls, repr(chunk.text) if not chunk.function_calls else "")
print("calls:", [(c.name, c.args) for c in calls])

"""count_tokens before a call, then the usage the call reports; and what the Gemini API refuses
to count."""

from google import genai
from google.genai import types

client = genai.Client()
prompt = "The quick brown fox jumps over the lazy dog."
counted = client.models.count_tokens(model="gemini-3.8-flash", contents=prompt)
response = client.models.generate_content(model="gemini-3.8-flash", contents=prompt)
print(
    "count_tokens:",
    counted.total_tokens,
    " prompt_token_count:",
    response.usage_metadata.prompt_token_count,
)

history = [
    types.Content(role="user", parts=[types.Part(text="Hello")]),
    types.Content(role="model", parts=[types.Part(text="Hi, how can I help?")]),
    types.Content(role="user", parts=[types.Part(text=prompt)]),
]
history_count = client.models.count_tokens(model="gemini-3.8-flash", contents=history)
print("history:", history_count.total_tokens)

refusals = {}
for label, call in {
    "system_instruction": lambda: client.models.count_tokens(
        model="gemini-3.8-flash",
        contents=prompt,
        config=types.CountTokensConfig(system_instruction="Be brief."),
    ),
    "tools": lambda: client.models.count_tokens(
        model="gemini-3.8-flash",
        contents=prompt,
        config={"tools": [{"function_declarations": [{"name": "f", "description": "d"}]}]},
    ),
    "compute_tokens": lambda: client.models.compute_tokens(
        model="gemini-3.8-flash", contents=prompt
    ),
}.items():
    try:
        call()
    except ValueError as err:
        refusals[label] = err
        print(f"{label}: ValueError: {err}")

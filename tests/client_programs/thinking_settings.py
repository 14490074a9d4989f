"""thinking_config on each live model: every thinking level, a budget, and the thoughts shown."""

from google import genai
from google.genai import errors, types

client = genai.Client()
MODELS = [
    "gemini-3.8-flash",
    "gemini-3.6-flash",
    "gemini-3.5-flash-lite",
    "gemini-3.1-flash-lite",
    "gemini-3.1-pro-preview",
    "gemini-3-flash-preview",
    "gemini-4-argon",
]
question = "The train leaves at 07:45. When does the train leave?"
table = {}
for model in MODELS:
    for level in ["minimal", "low", "medium", "high"]:
        config = types.GenerateContentConfig(
            thinking_config=types.ThinkingConfig(thinking_level=level)
        )
        try:
            usage = client.models.generate_content(
                model=model, contents=question, config=config
            ).usage_metadata
            table[model, level] = usage.thoughts_token_count or 0
        except errors.ClientError as err:
            table[model, level] = f"{err.code} {err.message}"
        print(f"{model:>24} {level:>8}: {table[model, level]}")

shown = client.models.generate_content(
    model="gemini-3.8-flash",
    contents=question,
    config=types.GenerateContentConfig(thinking_config=types.ThinkingConfig(include_thoughts=True)),
)
thought_parts = [p for p in shown.candidates[0].content.parts if p.thought]
print("include_thoughts:", len(thought_parts), "thought part(s); answer:", shown.text)

budget = client.models.generate_content(
    model="gemini-3.8-flash", contents=question, config={"thinking_config": {"thinking_budget": 0}}
)
print("thinking_budget=0:", budget.usage_metadata.thoughts_token_count)

try:
    client.models.generate_content(
        model="gemini-3.8-flash",
        contents=question,
        config={"thinking_config": {"thinking_budget": 1024, "thinking_level": "high"}},
    )
    both = None
except errors.ClientError as err:
    both = err
    print("budget and level:", err.code, err.message)

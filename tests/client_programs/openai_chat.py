"""The openai SDK on Gemini's OpenAI-compatible endpoint: a chat, n choices, and the usage."""

import os

from openai import OpenAI

BASE = os.environ.get("GOOGLE_GEMINI_BASE_URL", "https://generativelanguage.googleapis.com")
client = OpenAI(api_key=os.environ["GEMINI_API_KEY"], base_url=f"{BASE}/v1beta/openai/")
response = client.chat.completions.create(
    model="gemini-3.8-flash",
    messages=[
        {"role": "system", "content": "You are a helpful assistant. The shop closes at 18:30."},
        {"role": "user", "content": "When does the shop close?"},
    ],
    reasoning_effort="low",
)
print(response.choices[0].message.content)
print(response.usage.prompt_tokens, response.usage.completion_tokens, response.usage.total_tokens)
several = client.chat.completions.create(
    model="gemini-3.8-flash",
    n=2,
    messages=[{"role": "user", "content": "My PIN is 2580. What is my PIN?"}],
)
print("n=2:", [(c.index, c.message.content) for c in several.choices])

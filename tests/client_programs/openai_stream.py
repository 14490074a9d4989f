"""Streaming chat completions through the openai SDK, with the usage asked for in the last chunk."""

import os

from openai import OpenAI

BASE = os.environ.get("GOOGLE_GEMINI_BASE_URL", "https://generativelanguage.googleapis.com")
client = OpenAI(api_key=os.environ["GEMINI_API_KEY"], base_url=f"{BASE}/v1beta/openai/")
stream = client.chat.completions.create(
    model="gemini-3.8-flash",
    stream=True,
    stream_options={"include_usage": True},
    messages=[
        {
            "role": "user",
            "content": (
                "Our wifi password is 'blue-harbour-77'. Tell me the wifi password, "
                "and say where you read it."
            ),
        }
    ],
)
pieces, usage, finish = [], None, None
for chunk in stream:
    if chunk.choices:
        pieces.append(chunk.choices[0].delta.content or "")
        finish = chunk.choices[0].finish_reason or finish
    if chunk.usage:
        usage = chunk.usage
text = "".join(pieces)
print(text)
print(len(pieces), "chunks, finish:", finish, "usage:", usage and usage.total_tokens)

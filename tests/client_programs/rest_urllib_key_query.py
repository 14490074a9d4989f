"""Raw REST with urllib and the key in the query string (?key=), as the REST quickstart does."""

import json
import os
import urllib.request

BASE = os.environ.get("GOOGLE_GEMINI_BASE_URL", "https://generativelanguage.googleapis.com")
KEY = os.environ["GEMINI_API_KEY"]


def post(path, body):
    request = urllib.request.Request(
        f"{BASE}/v1beta/{path}?key={KEY}",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request) as answer:
        return json.loads(answer.read())


reply = post(
    "models/gemini-3.8-flash:generateContent",
    {
        "system_instruction": {"parts": [{"text": "You are a cat. Your name is Neko."}]},
        "contents": [{"parts": [{"text": "What is your name?"}]}],
        "generationConfig": {
            "temperature": 0.5,
            "maxOutputTokens": 500,
            "thinkingConfig": {"thinkingLevel": "low"},
        },
    },
)
print(reply["candidates"][0]["content"]["parts"][0]["text"])
print(reply["usageMetadata"])
counted = post(
    "models/gemini-3.8-flash:countTokens",
    {"contents": [{"parts": [{"text": "What is your name?"}]}]},
)
print("countTokens:", counted)

"""countTokens over REST: plain contents, and a whole generateContentRequest with its system
instruction and tools (the form the REST API accepts where the SDK's config refuses them)."""

import json
import os
import urllib.error
import urllib.request

BASE = os.environ.get("GOOGLE_GEMINI_BASE_URL", "https://generativelanguage.googleapis.com")
HEADERS = {"Content-Type": "application/json", "x-goog-api-key": os.environ["GEMINI_API_KEY"]}
URL = f"{BASE}/v1beta/models/gemini-3.8-flash:countTokens"


def post(body):
    request = urllib.request.Request(URL, data=json.dumps(body).encode(), headers=HEADERS)
    try:
        with urllib.request.urlopen(request) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


contents = [{"role": "user", "parts": [{"text": "How many tokens is this sentence?"}]}]
plain = post({"contents": contents})
whole = post(
    {
        "generateContentRequest": {
            "model": "models/gemini-3.8-flash",
            "contents": contents,
            "systemInstruction": {
                "parts": [{"text": "You count tokens for a living, and you are proud of it."}]
            },
            "tools": [
                {"functionDeclarations": [{"name": "lookup", "description": "Looks a word up."}]}
            ],
        }
    }
)
misplaced = post({"contents": contents, "systemInstruction": {"parts": [{"text": "Be brief."}]}})
print("plain:", plain)
print("generateContentRequest:", whole)
print("systemInstruction beside contents:", misplaced)

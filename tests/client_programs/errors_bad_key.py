"""What an unregistered caller meets: no API key at all on a raw request, and the SDK without a
key."""

import json
import os
import urllib.error
import urllib.request

BASE = os.environ.get("GOOGLE_GEMINI_BASE_URL", "https://generativelanguage.googleapis.com")
body = json.dumps({"contents": [{"parts": [{"text": "Hello"}]}]}).encode()
request = urllib.request.Request(
    f"{BASE}/v1beta/models/gemini-3.8-flash:generateContent",
    data=body,
    headers={"Content-Type": "application/json"},
)
try:
    urllib.request.urlopen(request)
    no_key = None
except urllib.error.HTTPError as err:
    no_key = (err.code, json.loads(err.read()))
    print(no_key[0], no_key[1]["error"]["status"], no_key[1]["error"]["message"])

from google import genai  # noqa: E402

saved = os.environ.pop("GEMINI_API_KEY", None)
try:
    genai.Client()
    sdk_refusal = None
except ValueError as err:
    sdk_refusal = err
    print("SDK:", err)
finally:
    if saved is not None:
        os.environ["GEMINI_API_KEY"] = saved

"""streamGenerateContent with ?alt=sse through requests: read the server-sent events line by
line."""

import json
import os

import requests

BASE = os.environ.get("GOOGLE_GEMINI_BASE_URL", "https://generativelanguage.googleapis.com")
url = f"{BASE}/v1beta/models/gemini-3.8-flash:streamGenerateContent?alt=sse"
prompt = (
    "Notes: the boiler was serviced in March, the roof in June and the windows in September. "
    "When was the roof serviced? Explain where you found it."
)
response = requests.post(
    url,
    headers={"x-goog-api-key": os.environ["GEMINI_API_KEY"]},
    json={"contents": [{"parts": [{"text": prompt}]}]},
    stream=True,
    timeout=30,
)
print(response.status_code, response.headers["Content-Type"])
events = []
for line in response.iter_lines(decode_unicode=True):
    if line.startswith("data: "):
        events.append(json.loads(line[len("data: ") :]))
text = "".join(p.get("text", "") for e in events for p in e["candidates"][0]["content"]["parts"])
print(len(events), "events:", text)
print("usage on every event:", all("usageMetadata" in e for e in events))
print("finish:", events[-1]["candidates"][0].get("finishReason"))

plain = requests.post(
    url.replace("?alt=sse", ""),
    headers={"x-goog-api-key": os.environ["GEMINI_API_KEY"]},
    json={"contents": [{"parts": [{"text": prompt}]}]},
    timeout=30,
)
array = plain.json()
print("without alt=sse:", type(array).__name__, len(array))

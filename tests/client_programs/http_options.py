"""http_options a program sets: a timeout, an API version, extra headers, retries; per client and
per call."""

from google import genai
from google.genai import errors, types

options = types.HttpOptions(
    timeout=30_000,
    api_version="v1beta",
    headers={"x-goog-user-project-label": "tutorial"},
    retry_options=types.HttpRetryOptions(
        attempts=3,
        initial_delay=0.1,
        max_delay=0.5,
        http_status_codes=[408, 429, 500, 502, 503, 504],
    ),
)
client = genai.Client(http_options=options)
response = client.models.generate_content(
    model="gemini-3.8-flash", contents="The door code is 9981. What is the door code?"
)
print("v1beta:", response.text)

v1 = genai.Client(http_options={"api_version": "v1", "timeout": 10_000})
print(
    "v1:",
    v1.models.generate_content(
        model="gemini-3.8-flash", contents="The door code is 9981. What is the door code?"
    ).text,
)

per_call = client.models.generate_content(
    model="gemini-3.8-flash",
    contents="Hello",
    config=types.GenerateContentConfig(
        http_options=types.HttpOptions(timeout=5_000, headers={"x-extra": "1"})
    ),
)
print("per call:", per_call.text)

try:
    client.models.generate_content(model="gemini-3.8-flash", contents="Hi", config={"top_p": 3.0})
    refused = None
except errors.ClientError as err:  # a 400 is not retried: it fails at once
    refused = err
    print("not retried:", err.code, err.status)
raw = response.sdk_http_response
print("headers seen:", raw.headers.get("content-type") if raw and raw.headers else None)

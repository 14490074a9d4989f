"""The errors a program catches, and the APIError fields it reads: code, status, message,
details."""

from google import genai
from google.genai import errors, types

client = genai.Client(
    http_options=types.HttpOptions(retry_options=types.HttpRetryOptions(attempts=1))
)
caught = {}


def attempt(label, call):
    try:
        call()
    except errors.APIError as err:
        caught[label] = err
        print(f"{label}: {type(err).__name__} code={err.code} status={err.status}")
        print(f"    message={err.message!r}")
        print(f"    details={type(err.details).__name__}")


attempt(
    "unknown model", lambda: client.models.generate_content(model="gemini-9-ultra", contents="Hi")
)
attempt(
    "temperature 5",
    lambda: client.models.generate_content(
        model="gemini-3.8-flash", contents="Hi", config={"temperature": 5.0}
    ),
)
try:
    client.models.generate_content(model="gemini-3.8-flash", contents=[])
except ValueError as err:  # the SDK refuses before sending
    caught["empty contents"] = err
    print("empty contents: ValueError", err)
attempt(
    "bad role",
    lambda: client.models.generate_content(
        model="gemini-3.8-flash", contents=[{"role": "assistant", "parts": [{"text": "Hi"}]}]
    ),
)
attempt(
    "too many tokens",
    lambda: client.models.generate_content(model="gemini-3.8-flash", contents="word " * 1_100_000),
)
attempt(
    "output cap",
    lambda: client.models.generate_content(
        model="gemini-3.8-flash", contents="Hi", config={"max_output_tokens": 1_000_000}
    ),
)
attempt(
    "bad mime type",
    lambda: client.models.generate_content(
        model="gemini-3.8-flash", contents="Hi", config={"response_mime_type": "text/html"}
    ),
)
attempt(
    "missing cache",
    lambda: client.models.generate_content(
        model="gemini-3.8-flash", contents="Hi", config={"cached_content": "cachedContents/nope"}
    ),
)

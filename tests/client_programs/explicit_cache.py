"""An explicit cache: create it, use it twice, list, get, update the ttl, delete."""

from google import genai
from google.genai import types

client = genai.Client()
MODEL = "gemini-3.8-flash"
manual = " ".join(
    f"Section {i}: the pump model P{i} runs at {100 + i} litres per hour." for i in range(1, 600)
)
cache = client.caches.create(
    model=MODEL,
    config=types.CreateCachedContentConfig(
        display_name="pump manual",
        system_instruction="You answer from the pump manual.",
        contents=[types.Content(role="user", parts=[types.Part(text=manual)])],
        ttl="300s",
    ),
)
print(cache.name, cache.display_name, cache.usage_metadata.total_token_count, cache.expire_time)

usages = []
for question in ["How many litres per hour does P7 run at?", "What about P12?"]:
    response = client.models.generate_content(
        model=MODEL,
        contents=question,
        config=types.GenerateContentConfig(cached_content=cache.name),
    )
    usages.append(response.usage_metadata)
    print(
        response.text,
        response.usage_metadata.cached_content_token_count,
        response.usage_metadata.prompt_token_count,
    )

listed = [c.name for c in client.caches.list()]
print("listed:", cache.name in listed)
fetched = client.caches.get(name=cache.name)
updated = client.caches.update(name=cache.name, config=types.UpdateCachedContentConfig(ttl="7200s"))
print("expire before/after:", fetched.expire_time, updated.expire_time)
client.caches.delete(name=cache.name)
print("after delete:", cache.name in [c.name for c in client.caches.list()])

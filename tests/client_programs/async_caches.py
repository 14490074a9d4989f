"""Explicit caching through client.aio: create, use, list, delete."""

import asyncio

from google import genai
from google.genai import types

client = genai.Client()
handbook = " ".join(
    f"Rule {i}: employees in team {i} start at {7 + i % 3}:00." for i in range(1, 700)
)


async def main():
    cache = await client.aio.caches.create(
        model="gemini-3.8-flash",
        config=types.CreateCachedContentConfig(
            contents=[handbook], ttl="600s", display_name="handbook"
        ),
    )
    response = await client.aio.models.generate_content(
        model="gemini-3.8-flash",
        contents="When does team 5 start?",
        config=types.GenerateContentConfig(cached_content=cache.name),
    )
    print(response.text, response.usage_metadata.cached_content_token_count)
    names = [c.name async for c in await client.aio.caches.list()]
    await client.aio.caches.delete(name=cache.name)
    after = [c.name async for c in await client.aio.caches.list()]
    print(cache.name in names, cache.name in after)
    return cache, response, names, after


cache, response, names_before, names_after = asyncio.run(main())

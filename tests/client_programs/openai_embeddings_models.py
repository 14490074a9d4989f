"""Embeddings and the model list through the openai SDK."""

import os

from openai import OpenAI

BASE = os.environ.get("GOOGLE_GEMINI_BASE_URL", "https://generativelanguage.googleapis.com")
client = OpenAI(api_key=os.environ["GEMINI_API_KEY"], base_url=f"{BASE}/v1beta/openai/")
vectors = client.embeddings.create(
    model="gemini-embedding-001", input=["The cat sat.", "A dog barked."]
)
print(len(vectors.data), len(vectors.data[0].embedding), vectors.usage)
models = [m.id for m in client.models.list()]
print(models)
one = client.models.retrieve("gemini-3.8-flash")
print(one.id, one.object, one.owned_by)

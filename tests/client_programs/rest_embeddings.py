"""embedContent and batchEmbedContents over REST with httpx."""

import os

import httpx

BASE = os.environ.get("GOOGLE_GEMINI_BASE_URL", "https://generativelanguage.googleapis.com")
http = httpx.Client(
    base_url=f"{BASE}/v1beta", headers={"x-goog-api-key": os.environ["GEMINI_API_KEY"]}
)
one = http.post(
    "/models/gemini-embedding-001:embedContent",
    json={
        "model": "models/gemini-embedding-001",
        "content": {"parts": [{"text": "Where is the station?"}]},
        "taskType": "RETRIEVAL_QUERY",
        "outputDimensionality": 256,
    },
).json()
print("one:", len(one["embedding"]["values"]))
batch = http.post(
    "/models/gemini-embedding-001:batchEmbedContents",
    json={
        "requests": [
            {"model": "models/gemini-embedding-001", "content": {"parts": [{"text": text}]}}
            for text in ("The station is on Main Street.", "Bananas are yellow.")
        ]
    },
).json()
print("batch:", [len(e["values"]) for e in batch["embeddings"]])

"""embed_content: one text, a list, a task type and a smaller dimension; then a similarity
search."""

import math

from google import genai
from google.genai import types

client = genai.Client()
one = client.models.embed_content(
    model="gemini-embedding-001", contents="How do I reset my password?"
)
print("one:", len(one.embeddings), len(one.embeddings[0].values))

docs = [
    "Reset your password from the account settings page.",
    "Our office is open from 9 to 5.",
    "Invoices are sent on the first day of each month.",
]
batch = client.models.embed_content(
    model="gemini-embedding-001",
    contents=docs,
    config=types.EmbedContentConfig(task_type="RETRIEVAL_DOCUMENT", output_dimensionality=768),
)
print("batch:", len(batch.embeddings), {len(e.values) for e in batch.embeddings})

query = client.models.embed_content(
    model="gemini-embedding-001",
    contents="I forgot my password",
    config=types.EmbedContentConfig(task_type="RETRIEVAL_QUERY", output_dimensionality=768),
)


def cosine(a, b):
    return sum(x * y for x, y in zip(a, b)) / (math.hypot(*a) * math.hypot(*b))


scores = [cosine(query.embeddings[0].values, e.values) for e in batch.embeddings]
best = docs[scores.index(max(scores))]
for doc, score in zip(docs, scores):
    print(f"{score:.3f}  {doc}")
print("best:", best)

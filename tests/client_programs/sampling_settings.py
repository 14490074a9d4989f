"""Sampling settings a tutorial sets: temperature, top_p, top_k, seed and the two penalties."""

from google import genai
from google.genai import types

client = genai.Client()
config = types.GenerateContentConfig(
    temperature=0.7, top_p=0.95, top_k=40, seed=1234, presence_penalty=0.5, frequency_penalty=0.5
)
first = client.models.generate_content(
    model="gemini-3.8-flash", contents="I parked on level 3. Where did I park?", config=config
)
again = client.models.generate_content(
    model="gemini-3.8-flash", contents="I parked on level 3. Where did I park?", config=config
)
print(first.text)
print("same answer with the same seed:", first.text == again.text)

lite = client.models.generate_content(
    model="gemini-3.5-flash-lite", contents="Say hello.", config={"temperature": 1.5, "top_k": 10}
)
print("flash-lite:", lite.text)

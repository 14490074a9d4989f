"""The same request with its config as a dict and as types.GenerateContentConfig."""

from google import genai
from google.genai import types

client = genai.Client()
question = "The meeting is on Tuesday at 10:00. When is the meeting?"

as_dict = client.models.generate_content(
    model="gemini-3.8-flash",
    contents=question,
    config={"temperature": 0.2, "max_output_tokens": 200, "system_instruction": "Answer briefly."},
)
as_type = client.models.generate_content(
    model="gemini-3.8-flash",
    contents=question,
    config=types.GenerateContentConfig(
        temperature=0.2, max_output_tokens=200, system_instruction="Answer briefly."
    ),
)
print("dict:", as_dict.text)
print("type:", as_type.text)
print("same:", as_dict.text == as_type.text)
print("finish:", as_type.candidates[0].finish_reason, "model:", as_type.model_version)

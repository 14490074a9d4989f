"""max_output_tokens, stop_sequences and candidate_count, and what the response says about each."""

from google import genai
from google.genai import types

client = genai.Client()
story = (
    "The harbour was quiet. Boats rocked at their moorings. A gull cried. The fisherman counted his"
    " nets, mended the torn ones, and waited for the tide. Summarise the passage in detail."
)

short = client.models.generate_content(
    model="gemini-3.8-flash",
    contents=story,
    config=types.GenerateContentConfig(max_output_tokens=8),
)
print("max_output_tokens=8:", short.candidates[0].finish_reason, repr(short.text))
print(
    "  usage:",
    short.usage_metadata.candidates_token_count,
    short.usage_metadata.thoughts_token_count,
)

stopped = client.models.generate_content(
    model="gemini-3.8-flash",
    contents="My code is 1234-5678. What is my code?",
    config=types.GenerateContentConfig(stop_sequences=["-"]),
)
print("stop_sequences=['-']:", stopped.candidates[0].finish_reason, repr(stopped.text))

several = client.models.generate_content(
    model="gemini-3.8-flash",
    contents="My code is 42. What is my code?",
    config=types.GenerateContentConfig(candidate_count=2),
)
print("candidate_count=2:", len(several.candidates), [c.index for c in several.candidates])
for candidate in several.candidates:
    print("  ", candidate.content.parts[0].text)

"""Every form `contents` takes in the SDK, one question each: str, list of str, Content, dict,
Part, mixed."""

from google import genai
from google.genai import types

client = genai.Client()
MODEL = "gemini-3.8-flash"

forms = {
    "str": "My cat is called Mittens. What is my cat called?",
    "list of str": ["My cat is called Mittens.", "What is my cat called?"],
    "Content": types.Content(
        role="user", parts=[types.Part(text="My cat is called Mittens. What is my cat called?")]
    ),
    "dict": {
        "role": "user",
        "parts": [{"text": "My cat is called Mittens. What is my cat called?"}],
    },
    "Part.from_text": types.Part.from_text(text="My cat is called Mittens. What is my cat called?"),
    "mixed": ["My cat is called Mittens.", types.Part.from_text(text="What is my cat called?")],
    "list of Content": [
        types.UserContent(parts=[types.Part(text="My cat is called Mittens.")]),
        types.ModelContent(parts=[types.Part(text="Noted.")]),
        {"role": "user", "parts": [{"text": "What is my cat called?"}]},
    ],
}
answers = {}
for label, contents in forms.items():
    response = client.models.generate_content(model=MODEL, contents=contents)
    answers[label] = response.text
    print(f"{label:>15}: {response.text}  [{response.usage_metadata.total_token_count} tokens]")

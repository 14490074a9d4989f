"""system_instruction as a str, a Part, a Content and a list: the model sees the same
instruction."""

from google import genai
from google.genai import types

client = genai.Client()
rule = "The password is swordfish."
forms = {
    "str": rule,
    "Part": types.Part.from_text(text=rule),
    "Content": types.Content(parts=[types.Part(text=rule)]),
    "list": ["You are a doorkeeper.", rule],
}
answers = {}
for label, instruction in forms.items():
    response = client.models.generate_content(
        model="gemini-3.8-flash",
        contents="What is the password?",
        config=types.GenerateContentConfig(system_instruction=instruction),
    )
    answers[label] = response.text
    print(
        f"{label:>8}: {response.text} (prompt {response.usage_metadata.prompt_token_count} tokens)"
    )

"""generate_content_stream: print the text as it arrives and the usage each chunk carries."""

from google import genai

client = genai.Client()
prompt = (
    "Here are my notes. Monday: call the plumber. Tuesday: dentist at 9. Wednesday: pay rent. "
    "Thursday: gym. Friday: dinner with Sam. What is on Tuesday?"
)
chunks = list(client.models.generate_content_stream(model="gemini-3.8-flash", contents=prompt))
text = "".join(chunk.text or "" for chunk in chunks)
for chunk in chunks:
    usage = chunk.usage_metadata
    print(
        repr(chunk.text),
        usage.prompt_token_count if usage else None,
        usage.candidates_token_count if usage else None,
        chunk.candidates[0].finish_reason,
    )
final = chunks[-1]
whole = client.models.generate_content(model="gemini-3.8-flash", contents=prompt)
print("joined:", text)
print("same as generate_content:", text == whole.text)
print(
    "final usage:",
    final.usage_metadata.total_token_count,
    "vs",
    whole.usage_metadata.total_token_count,
)

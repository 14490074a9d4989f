"""A chat: several send_message turns, then the curated and the comprehensive history."""

from google import genai

client = genai.Client()
chat = client.chats.create(
    model="gemini-3.8-flash", config={"system_instruction": "You are a helpful assistant."}
)
replies = []
for message in ["Hi! My name is Priya and I live in Lyon.", "I have two dogs.", "Where do I live?"]:
    response = chat.send_message(message)
    replies.append(response.text)
    print("user:", message)
    print("model:", response.text)

# A reply cut off before any text (the thinking spent the whole budget) is not valid: the curated
# history leaves that turn out, the comprehensive one keeps it.
cut = chat.send_message("Describe Lyon in detail.", config={"max_output_tokens": 4})
print("cut reply:", cut.candidates[0].finish_reason, repr(cut.text))
curated = chat.get_history(curated=True)
comprehensive = chat.get_history(curated=False)
print("curated:", len(curated), "comprehensive:", len(comprehensive))
for content in curated:
    print(f"  {content.role}: {content.parts[0].text}")

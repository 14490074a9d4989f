"""A chat streamed chunk by chunk, and the history it keeps."""

from google import genai

client = genai.Client()
chat = client.chats.create(model="gemini-3.8-flash")
chat.send_message("The launch code is alpha-seven. Remember it.")
pieces = []
for chunk in chat.send_message_stream(
    "Tell me everything you know about the launch code, at length."
):
    pieces.append(chunk.text or "")
    print(repr(chunk.text))
streamed = "".join(pieces)
history = chat.get_history()
# The SDK records each streamed chunk as its own model message: join those after the last user turn.
last_user = max(i for i, content in enumerate(history) if content.role == "user")
recorded = "".join(
    part.text or "" for content in history[last_user + 1 :] for part in content.parts
)
print(len(pieces), "chunks;", len(history), "messages in history")
print("history holds the streamed answer:", recorded == streamed)
follow_up = chat.send_message("What is the launch code?")
print("after the stream:", follow_up.text)

"""client.aio: generate_content, a stream, a chat, count_tokens and embeddings, concurrently."""

import asyncio

from google import genai

client = genai.Client()


async def main():
    questions = [f"My locker number is {n}. What is my locker number?" for n in (11, 22, 33)]
    answers = await asyncio.gather(
        *(
            client.aio.models.generate_content(model="gemini-3.8-flash", contents=q)
            for q in questions
        )
    )
    for answer in answers:
        print("gather:", answer.text)

    pieces = []
    async for chunk in await client.aio.models.generate_content_stream(
        model="gemini-3.8-flash",
        contents="The gate code is 4471. Repeat the gate code, and explain it.",
    ):
        pieces.append(chunk.text or "")
    print("stream:", "".join(pieces), f"({len(pieces)} chunks)")

    chat = client.aio.chats.create(model="gemini-3.8-flash")
    await chat.send_message("My favourite colour is teal.")
    reply = await chat.send_message("What is my favourite colour?")
    print("chat:", reply.text, len(chat.get_history()))

    streamed_chat = []
    async for chunk in await chat.send_message_stream("Say my favourite colour again."):
        streamed_chat.append(chunk.text or "")
    print("chat stream:", "".join(streamed_chat))

    counted = await client.aio.models.count_tokens(
        model="gemini-3.8-flash", contents="one two three"
    )
    vectors = await client.aio.models.embed_content(
        model="gemini-embedding-001", contents=["a cat", "a dog"]
    )
    print("count:", counted.total_tokens, "embeddings:", len(vectors.embeddings))
    return answers, "".join(pieces), reply, counted, vectors


answers, streamed, reply, counted, vectors = asyncio.run(main())

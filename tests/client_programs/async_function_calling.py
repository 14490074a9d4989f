"""Automatic function calling with an async Python function through client.aio."""

import asyncio

from google import genai
from google.genai import types

ran = []


async def convert_currency(amount: float, currency: str) -> dict:
    """Converts an amount of euros into another currency.

    Args:
        amount: The amount in euros.
        currency: The target currency code, e.g. USD.
    """
    ran.append((amount, currency))
    return {"converted": round(amount * 1.08, 2), "currency": currency}


client = genai.Client()


async def main():
    chat = client.aio.chats.create(
        model="gemini-3.8-flash", config=types.GenerateContentConfig(tools=[convert_currency])
    )
    return await chat.send_message("Convert 50 euros to currency 'USD'.")


reply = asyncio.run(main())
print("ran:", ran)
print("answer:", reply.text)

"""Tool calls through the openai SDK: the model asks, the program answers with a tool message."""

import json
import os

from openai import OpenAI

BASE = os.environ.get("GOOGLE_GEMINI_BASE_URL", "https://generativelanguage.googleapis.com")
client = OpenAI(api_key=os.environ["GEMINI_API_KEY"], base_url=f"{BASE}/v1beta/openai/")
tools = [
    {
        "type": "function",
        "function": {
            "name": "get_stock_price",
            "description": "Get the current stock price of a company by its ticker.",
            "parameters": {
                "type": "object",
                "properties": {"ticker": {"type": "string", "description": "e.g. GOOG"}},
                "required": ["ticker"],
            },
        },
    }
]
messages = [{"role": "user", "content": "What is the stock price of 'GOOG' right now?"}]
first = client.chat.completions.create(
    model="gemini-3.8-flash", messages=messages, tools=tools, tool_choice="auto"
)
message = first.choices[0].message
print("finish:", first.choices[0].finish_reason)
for call in message.tool_calls or []:
    print("tool call:", call.id, call.function.name, call.function.arguments)
messages.append(message.model_dump(exclude_none=True))
for call in message.tool_calls or []:
    messages.append(
        {
            "role": "tool",
            "tool_call_id": call.id,
            "content": json.dumps(
                {"ticker": json.loads(call.function.arguments)["ticker"], "price": 171.2}
            ),
        }
    )
second = client.chat.completions.create(model="gemini-3.8-flash", messages=messages, tools=tools)
print("answer:", second.choices[0].message.content)
forced = client.chat.completions.create(
    model="gemini-3.8-flash",
    messages=[{"role": "user", "content": "Hi!"}],
    tools=tools,
    tool_choice={"type": "function", "function": {"name": "get_stock_price"}},
)
print("forced:", [c.function.name for c in forced.choices[0].message.tool_calls or []])

"""response_format with a JSON schema through the openai SDK, and the pydantic parse helper."""

import json
import os

from openai import OpenAI
from pydantic import BaseModel

BASE = os.environ.get("GOOGLE_GEMINI_BASE_URL", "https://generativelanguage.googleapis.com")
client = OpenAI(api_key=os.environ["GEMINI_API_KEY"], base_url=f"{BASE}/v1beta/openai/")


class CalendarEvent(BaseModel):
    name: str
    date: str
    participants: list[str]


schema = {
    "type": "json_schema",
    "json_schema": {"name": "calendar_event", "schema": CalendarEvent.model_json_schema()},
}
raw = client.chat.completions.create(
    model="gemini-3.8-flash",
    response_format=schema,
    messages=[{"role": "user", "content": "Alice and Bob are going to a science fair on Friday."}],
)
print(raw.choices[0].message.content)
event = json.loads(raw.choices[0].message.content)
parsed = client.beta.chat.completions.parse(
    model="gemini-3.8-flash",
    response_format=CalendarEvent,
    messages=[{"role": "user", "content": "Alice and Bob are going to a science fair on Friday."}],
)
print(parsed.choices[0].message.parsed)

"""Function calling over REST as the REST notebook writes it: snake_case tool_config, then the
response."""

import json
import os

import requests

BASE = os.environ.get("GOOGLE_GEMINI_BASE_URL", "https://generativelanguage.googleapis.com")
URL = f"{BASE}/v1beta/models/gemini-3.8-flash:generateContent"
HEADERS = {"x-goog-api-key": os.environ["GEMINI_API_KEY"]}
tools = [
    {
        "function_declarations": [
            {"name": "enable_lights", "description": "Turn on the lighting system."},
            {
                "name": "set_light_color",
                "description": "Set the light color. Lights must be enabled for this to work.",
                "parameters": {
                    "type": "object",
                    "properties": {"rgb_hex": {"type": "string"}},
                    "required": ["rgb_hex"],
                },
            },
        ]
    }
]
contents = [{"role": "user", "parts": [{"text": "Set the light color to 'ff0000'."}]}]
body = {
    "contents": contents,
    "tools": tools,
    "tool_config": {
        "function_calling_config": {"mode": "ANY", "allowed_function_names": ["set_light_color"]}
    },
}
first = requests.post(URL, headers=HEADERS, json=body, timeout=30).json()
model_turn = first["candidates"][0]["content"]
call = model_turn["parts"][0]["functionCall"]
print("call:", call["name"], call["args"], "signed:", "thoughtSignature" in model_turn["parts"][0])
contents += [
    model_turn,
    {
        "role": "user",
        "parts": [
            {
                "functionResponse": {
                    "name": call["name"],
                    "response": {"result": "color set to " + call["args"]["rgb_hex"]},
                }
            }
        ],
    },
]
final = requests.post(
    URL, headers=HEADERS, json={"contents": contents, "tools": tools}, timeout=30
).json()
text = final["candidates"][0]["content"]["parts"][0]["text"]
print("answer:", text)
print(json.dumps(final["usageMetadata"]))

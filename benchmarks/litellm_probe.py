"""litellm against the glass box, through both of its routes to Gemini: what comes back clean.

litellm reaches Gemini two ways: its `gemini/` provider speaks generateContent, and its `openai/`
provider, pointed at `/v1beta/openai/`, speaks the OpenAI-compatible endpoint. This runs the same
requests a tutorial makes (plain, system prompt, several turns, a stream, a tool call and the answer
after its result, JSON output, stop, max_tokens, an embedding) through each, and prints a line a
request: clean, 4xx / 5xx (with the message) or crash. A measurement, not a test: litellm is not a
dependency of the workbook, so it runs in a venv of its own:

    python3 -m venv /tmp/llvenv && /tmp/llvenv/bin/pip install litellm
    /tmp/llvenv/bin/python benchmarks/litellm_probe.py

It starts the glass box with the workbook's own venv (.venv/bin/python) and talks to it over
loopback.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

# litellm reads its price table offline, not from GitHub
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
import litellm  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
MODEL = "gemini-3.8-flash"
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "The current weather in a city.",
            "parameters": {
                "type": "object",
                "properties": {"city": {"type": "string", "description": "The city"}},
                "required": ["city"],
            },
        },
    }
]
KEY = (  # any key: the glass box accepts every key and Gemini's is never needed here
    "offline-glass-box"
)


def start_glass_box() -> tuple[subprocess.Popen, str]:
    code = (
        "from harness.engine.server import ensure_running; import sys, time; "
        "print(ensure_running(), flush=True); sys.stdin.read()"
    )
    process = subprocess.Popen(
        [str(ROOT / ".venv/bin/python"), "-c", code],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={"WORKBOOK_OFFLINE": "1", "PATH": "/usr/bin:/bin"},
    )
    return process, process.stdout.readline().strip()


def cases(route: str, base: str) -> dict:
    """name -> a function making the request through `route` ("gemini" or "openai")."""
    model = f"{route}/{MODEL}"
    # litellm puts `/models/{model}:generateContent` after a custom api_base, so it carries the API
    # version.
    extra = {"api_base": f"{base}/v1beta/openai/" if route == "openai" else f"{base}/v1beta"}
    ask = lambda **kw: litellm.completion(model=model, api_key=KEY, **extra, **kw)  # noqa: E731

    def tool_round_trip():
        first = ask(
            messages=[{"role": "user", "content": "What's the weather in Paris?"}], tools=TOOLS
        )
        call = first.choices[0].message.tool_calls[0]
        second = ask(
            tools=TOOLS,
            messages=[
                {"role": "user", "content": "What's the weather in Paris?"},
                first.choices[0].message.model_dump(),
                {
                    "role": "tool",
                    "tool_call_id": call.id,
                    "content": json.dumps({"forecast": "sunny, 21 C"}),
                },
            ],
        )
        return (
            f"{call.function.name}({call.function.arguments}) ->"
            f" {second.choices[0].message.content}"
        )

    return {
        "plain": (
            lambda: (
                ask(messages=[{"role": "user", "content": "Say hello."}]).choices[0].message.content
            )
        ),
        "system prompt": (
            lambda: (
                ask(
                    messages=[
                        {"role": "system", "content": "You answer in one word."},
                        {"role": "user", "content": "Name a colour."},
                    ]
                )
                .choices[0]
                .message.content
            )
        ),
        "several turns": (
            lambda: (
                ask(
                    messages=[
                        {"role": "user", "content": "My name is Ada."},
                        {"role": "assistant", "content": "Hello Ada."},
                        {"role": "user", "content": "What is my name?"},
                    ]
                )
                .choices[0]
                .message.content
            )
        ),
        "stream": lambda: "".join(
            chunk.choices[0].delta.content or ""
            for chunk in ask(
                messages=[{"role": "user", "content": "List five fruits."}], stream=True
            )
        ),
        "tool call, then its result": tool_round_trip,
        "JSON output": (
            lambda: (
                ask(
                    messages=[{"role": "user", "content": "Give a person with a name and an age."}],
                    response_format={"type": "json_object"},
                )
                .choices[0]
                .message.content
            )
        ),
        "stop and max_tokens": (
            lambda: (
                ask(
                    messages=[{"role": "user", "content": "Count from one to twenty."}],
                    stop=["ten"],
                    max_tokens=40,
                )
                .choices[0]
                .message.content
            )
        ),
        "usage": lambda: ask(messages=[{"role": "user", "content": "Hi"}]).usage.prompt_tokens,
        "embedding": lambda: len(
            litellm.embedding(
                model=f"{route}/gemini-embedding-001", input=["tea and cake"], api_key=KEY, **extra
            ).data[0]["embedding"]
        ),
    }


def outcome(make) -> tuple[str, str]:
    try:
        return "clean", str(make())[:70].replace("\n", " ")
    except Exception as error:  # litellm wraps every API error; its status_code says which class
        code = getattr(error, "status_code", None) or 0
        kind = "4xx" if 400 <= code < 500 else "5xx" if 500 <= code < 600 else "crash"
        return kind, f"{type(error).__name__}: {str(error)[:110]}".replace("\n", " ")


def main() -> None:
    process, base = start_glass_box()
    try:
        for route in ("gemini", "openai"):
            tally = {}
            for name, make in cases(route, base).items():
                kind, detail = outcome(make)
                tally[kind] = tally.get(kind, 0) + 1
                print(f"  {route:6} {name:28} {kind:5} {detail}")
            print(f"{route}/ route: " + ", ".join(f"{n} {k}" for k, n in sorted(tally.items())))
    finally:
        process.stdin.close()
        process.wait(timeout=10)


if __name__ == "__main__":
    sys.exit(main())

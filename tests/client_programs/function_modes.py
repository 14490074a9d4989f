"""tool_config modes: AUTO, ANY (with allowed_function_names) and NONE on the same request."""

from google import genai
from google.genai import types

client = genai.Client()
declarations = [
    types.FunctionDeclaration(
        name="get_weather",
        description="Gets the weather forecast for a city.",
        parameters={
            "type": "OBJECT",
            "properties": {"city": {"type": "STRING"}},
            "required": ["city"],
        },
    ),
    types.FunctionDeclaration(
        name="get_news",
        description="Gets the latest news headlines on a topic.",
        parameters={"type": "OBJECT", "properties": {"topic": {"type": "STRING"}}},
    ),
]
tools = [types.Tool(function_declarations=declarations)]
results = {}
for label, tool_config in {
    "AUTO": types.ToolConfig(function_calling_config=types.FunctionCallingConfig(mode="AUTO")),
    "ANY": types.ToolConfig(function_calling_config=types.FunctionCallingConfig(mode="ANY")),
    "ANY get_news": types.ToolConfig(
        function_calling_config=types.FunctionCallingConfig(
            mode="ANY", allowed_function_names=["get_news"]
        )
    ),
    "NONE": types.ToolConfig(function_calling_config=types.FunctionCallingConfig(mode="NONE")),
}.items():
    for prompt in ["What's the weather like in Berlin?", "Hello there!"]:
        response = client.models.generate_content(
            model="gemini-3.8-flash",
            contents=prompt,
            config=types.GenerateContentConfig(
                tools=tools, tool_config=tool_config, automatic_function_calling={"disable": True}
            ),
        )
        results[label, prompt] = [
            (c.name, c.args) for c in response.function_calls or []
        ] or response.text
        print(f"{label:>12} | {prompt:<36} | {results[label, prompt]}")

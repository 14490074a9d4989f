"""Thought signatures on Gemini 3: send a call back without its signature, with a dummy, with its
own."""

from google import genai
from google.genai import errors, types

client = genai.Client(http_options={"retry_options": {"attempts": 1}})
tool = types.Tool(
    function_declarations=[
        types.FunctionDeclaration(
            name="get_exchange_rate",
            description="Gets the exchange rate between two currencies.",
            parameters={
                "type": "OBJECT",
                "properties": {"base": {"type": "STRING"}, "target": {"type": "STRING"}},
                "required": ["base", "target"],
            },
        )
    ]
)
config = types.GenerateContentConfig(tools=[tool])
question = types.Content(
    role="user", parts=[types.Part(text="What is the exchange rate from 'EUR' to 'USD'?")]
)
first = client.models.generate_content(model="gemini-3.8-flash", contents=[question], config=config)
call_part = first.candidates[0].content.parts[0]
answer_part = types.Part.from_function_response(name="get_exchange_rate", response={"rate": 1.08})


def send_back(part):
    return client.models.generate_content(
        model="gemini-3.8-flash",
        config=config,
        contents=[
            question,
            types.Content(role="model", parts=[part]),
            types.Content(role="user", parts=[answer_part]),
        ],
    )


outcomes = {}
for label, part in {
    "own signature": call_part,
    "no signature": types.Part(function_call=call_part.function_call),
    "dummy": types.Part(
        function_call=call_part.function_call, thought_signature=b"skip_thought_signature_validator"
    ),
}.items():
    try:
        outcomes[label] = send_back(part).text
    except errors.ClientError as err:
        outcomes[label] = err
    print(f"{label}: {outcomes[label]}")

"""A history that ends on a model turn (a prefill), and consecutive user turns."""

from google import genai
from google.genai import errors, types

client = genai.Client(http_options={"retry_options": {"attempts": 1}})
prefill = [
    types.Content(role="user", parts=[types.Part(text="Name a colour.")]),
    types.Content(role="model", parts=[types.Part(text="The colour is")]),
]
outcomes = {}
for model in ("gemini-3.8-flash", "gemini-3.5-flash-lite"):
    try:
        outcomes[model] = client.models.generate_content(model=model, contents=prefill).text
    except errors.ClientError as err:
        outcomes[model] = err
    print(model, "->", outcomes[model])
two_users = client.models.generate_content(
    model="gemini-3.8-flash",
    contents=[
        types.Content(role="user", parts=[types.Part(text="My bike is red.")]),
        types.Content(role="user", parts=[types.Part(text="What colour is my bike?")]),
    ],
)
print("two user turns:", two_users.text)

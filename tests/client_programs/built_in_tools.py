"""Built-in tools a quickstart turns on: Google Search and code execution."""

from google import genai
from google.genai import errors, types

client = genai.Client(http_options={"retry_options": {"attempts": 1}})
outcomes = {}
for label, tool in {
    "google_search": types.Tool(google_search=types.GoogleSearch()),
    "code_execution": types.Tool(code_execution=types.ToolCodeExecution()),
}.items():
    try:
        response = client.models.generate_content(
            model="gemini-3.8-flash",
            contents="Who won the last World Cup?",
            config=types.GenerateContentConfig(tools=[tool]),
        )
        outcomes[label] = response.candidates[0].grounding_metadata
    except errors.ClientError as err:
        outcomes[label] = err
    print(label, "->", outcomes[label])

"""response_logprobs and logprobs, as the logprobs tutorial asks for them."""

from google import genai
from google.genai import errors, types

client = genai.Client()
try:
    response = client.models.generate_content(
        model="gemini-3.8-flash",
        contents="I am not sure I like this restaurant.",
        config=types.GenerateContentConfig(response_logprobs=True, logprobs=3),
    )
    outcome = ("answered", response.candidates[0].logprobs_result)
    print(response.text, response.candidates[0].avg_logprobs)
except errors.ClientError as err:
    outcome = ("refused", err)
    print(err.code, err.status, err.message)

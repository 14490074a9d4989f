"""Model ids a tutorial may still use: a deprecated id routed on, a closed 2.5 id, a -latest
alias."""

from google import genai
from google.genai import errors

client = genai.Client(http_options={"retry_options": {"attempts": 1}})
routed = client.models.generate_content(
    model="gemini-3.5-flash", contents="The gate is B12. Which gate?"
)
print("gemini-3.5-flash answered as:", routed.model_version)
try:
    client.models.generate_content(model="gemini-2.5-flash", contents="Hello")
    closed = None
except errors.ClientError as err:
    closed = err
    print("gemini-2.5-flash:", err.code, err.status, err.message)

beta = genai.Client(http_options={"api_version": "v1beta"})
latest = beta.models.generate_content(
    model="gemini-flash-latest", contents="The gate is B12. Which gate?"
)
print("gemini-flash-latest on v1beta:", latest.model_version)
# kept: a client
v1 = genai.Client(http_options={"api_version": "v1", "retry_options": {"attempts": 1}})
try:  # left unreferenced closes its connection
    v1.models.generate_content(model="gemini-flash-latest", contents="Hello")
    latest_on_v1 = None
except errors.ClientError as err:
    latest_on_v1 = err
    print("gemini-flash-latest on v1:", err.code, err.message)

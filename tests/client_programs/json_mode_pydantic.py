"""JSON mode with a pydantic schema: response.parsed is the model's answer as objects."""

import json

from google import genai
from pydantic import BaseModel


class Recipe(BaseModel):
    recipe_name: str
    ingredients: list[str]


client = genai.Client()
response = client.models.generate_content(
    model="gemini-3.8-flash",
    contents="List a few popular cookie recipes, and include the amounts of ingredients.",
    config={"response_mime_type": "application/json", "response_schema": list[Recipe]},
)
print(response.text)
recipes = response.parsed
print(type(recipes).__name__, len(recipes), [type(r).__name__ for r in recipes])
data = json.loads(response.text)

single = client.models.generate_content(
    model="gemini-3.8-flash",
    contents="Give me one recipe.",
    config={
        "response_mime_type": "application/json",
        "response_json_schema": Recipe.model_json_schema(),
    },
)
print(single.text, single.parsed)

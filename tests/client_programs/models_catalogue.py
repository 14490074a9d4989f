"""What models there are: models.list, then models.get on the one a tutorial uses."""

from google import genai

client = genai.Client()
names = []
for model in client.models.list():
    names.append(model.name)
    print(model.name, model.input_token_limit, model.output_token_limit, model.supported_actions)
flash = client.models.get(model="gemini-3.8-flash")
print(flash.name, flash.display_name, flash.input_token_limit, flash.output_token_limit)
embedders = [m.name for m in client.models.list() if "embedContent" in (m.supported_actions or [])]
print("embedding models:", embedders)

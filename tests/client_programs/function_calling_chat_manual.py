"""Function calling in a chat without AFC: send the function's response back with send_message."""

from google import genai
from google.genai import types

client = genai.Client()
lookup = types.FunctionDeclaration(
    name="find_order",
    description="Finds an order by its order number and returns its status.",
    parameters=types.Schema(
        type="OBJECT",
        properties={"order_number": types.Schema(type="STRING")},
        required=["order_number"],
    ),
)
chat = client.chats.create(
    model="gemini-3.8-flash",
    config=types.GenerateContentConfig(
        tools=[types.Tool(function_declarations=[lookup])],
        automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True),
    ),
)
first = chat.send_message("Where is my order? The order number is 'A-1042'.")
call = first.function_calls[0]
print("call:", call.name, call.args)
second = chat.send_message(
    types.Part.from_function_response(
        name=call.name, response={"status": "shipped", "carrier": "DHL", "eta": "Thursday"}
    )
)
print("answer:", second.text)
print("roles:", [c.role for c in chat.get_history()])

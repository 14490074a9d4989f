"""Sequential steps with AFC: the second call needs the first one's result."""

from google import genai
from google.genai import types

log = []


def find_theaters(location: str, movie: str) -> dict:
    """Finds movie theaters near a location that are showing a movie.

    Args:
        location: The city and state, e.g. San Francisco, CA.
        movie: The movie title.
    """
    log.append(("find_theaters", location, movie))
    return {"theaters": ["Regal Crossing", "AMC Central"]}


def get_showtimes(theater: str, movie: str) -> dict:
    """Gets the showtimes of a movie at a theater."""
    log.append(("get_showtimes", theater, movie))
    return {"showtimes": ["18:30", "21:00"]}


client = genai.Client()
chat = client.chats.create(
    model="gemini-3.8-flash",
    config=types.GenerateContentConfig(tools=[find_theaters, get_showtimes]),
)
reply = chat.send_message(
    "First find theaters in Mountain View, CA showing the Barbie movie, "
    "then get the showtimes at the first one."
)
print("log:", log)
print("answer:", reply.text)

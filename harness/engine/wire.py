"""Check a request the way Gemini does, and say what is wrong in Google's error shape.

A student who splits a function call from its response must meet the error the real API gives,
word for word, so the messages below are the real ones (as public issue reports quote them, 2026):

    >>> try:
    ...     check_contents([{"role": "user", "parts": [{"text": "hi"}]},
    ...                     {"role": "user", "parts": [{"functionResponse": {"name": "f", "response": {}}}]}])
    ... except WireError as err:
    ...     print(err.code, err.message)
    400 Please ensure that function response turn comes immediately after a function call turn.

A `WireError` turns into the body the SDK parses into `google.genai.errors.ClientError`:
`{"error": {"code": 400, "message": "...", "status": "INVALID_ARGUMENT"}}`.
"""
import json

from harness.models import CLOSED_TO_NEW_KEYS, LATEST, MODELS, ROUTED, legacy_models_allowed

ROLES = ("user", "model")
CALL_AFTER_USER = ("Please ensure that function call turn comes immediately after a user turn "
                   "or after a function response turn.")
RESPONSE_AFTER_CALL = "Please ensure that function response turn comes immediately after a function call turn."
PARTS_MISMATCH = ("Please ensure that the number of function response parts is equal to the number of "
                  "function call parts of the function call turn.")
BAD_ROLE = "Please use a valid role: user, model."
NO_CONTENTS = "* GenerateContentRequest.contents: contents is not specified"
MAX_DEPTH = 100  # protobuf's default recursion limit for parsing [OFF protobuf docs]; a body deeper is refused


class WireError(Exception):
    """An API error: HTTP status code, Google status name and the message the student reads."""

    def __init__(self, code: int, status: str, message: str):
        super().__init__(f"{code} {status}: {message}")
        self.code, self.status, self.message = code, status, message

    def body(self) -> dict:
        return {"error": {"code": self.code, "message": self.message, "status": self.status}}


def invalid(message: str) -> WireError:
    """The commonest error: 400 INVALID_ARGUMENT."""
    return WireError(400, "INVALID_ARGUMENT", message)


def parse_body(raw: bytes) -> dict:
    """The JSON object in a request body ({} when empty); a 400 that says where the JSON breaks."""
    if not raw.strip():
        return {}
    try:
        body = json.loads(raw)
    except RecursionError:  # deeper than Python's parser goes
        raise _too_deep() from None
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        where = (f" at line {err.lineno}, column {err.colno} (character {err.pos})"
                 if isinstance(err, json.JSONDecodeError) else "")
        detail = err.msg if isinstance(err, json.JSONDecodeError) else "it is not UTF-8"
        raise invalid(f"Invalid JSON payload received. The request body is not valid JSON: "
                      f"{detail}{where}.") from None
    if not isinstance(body, dict):
        raise invalid("Invalid JSON payload received. The request body must be a JSON object.")
    if _depth(body) > MAX_DEPTH:
        raise _too_deep()
    return body


def _depth(value) -> int:
    """How deep objects and lists nest in `value` (iterative: a hostile body cannot blow the stack)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, level)
            stack += [(child, level + 1) for child in (item.values() if isinstance(item, dict) else item)]
    return deepest


def _too_deep() -> WireError:
    return invalid(f"Invalid JSON payload received. The request nests objects and lists more than "
                  f"{MAX_DEPTH} levels deep.")


def resolve_model(name: str, api_version: str = "v1beta", method: str = "generateContent") -> str:
    """The id of the model that answers `name`, as Gemini serves a new key; 404 otherwise.

    `models/gemini-3.8-flash` -> `gemini-3.8-flash`; a deprecated id -> the model it is routed to; a
    `-latest` alias -> its model on v1beta only; a model closed to new keys -> Gemini's 404 for it,
    unless WORKBOOK_LEGACY_MODELS=1 (harness/models.py).
    """
    model = name.removeprefix("models/")
    served = ROUTED.get(model) or (LATEST.get(model) if api_version == "v1beta" else None) or model
    row = MODELS.get(served)
    if row is not None and not row.open_to_new_keys and not legacy_models_allowed():
        raise WireError(404, "NOT_FOUND", CLOSED_TO_NEW_KEYS.format(model=served))
    if row is None:
        raise WireError(404, "NOT_FOUND", (
            f"models/{model} is not found for API version {api_version}, or is not supported for "
            f"{method}. Call ListModels to see the list of available models and their supported "
            f"methods. (The glass box answers for: {', '.join(_served_ids(api_version))}.)"))
    return served


def _served_ids(api_version: str) -> list[str]:
    """What a request may name here: the open rows (and the closed ones for a legacy project), routed ids,
    and on v1beta the `-latest` aliases."""
    rows = [m for m, row in MODELS.items() if row.open_to_new_keys or legacy_models_allowed()]
    return rows + list(ROUTED) + (list(LATEST) if api_version == "v1beta" else [])


def _count(content: dict, key: str) -> int:
    return sum(1 for part in content.get("parts") or [] if key in part)


def check_contents(contents: list) -> None:
    """Raise the real API's 400 for a bad role or a function call/response turn out of place.

    A function call turn is a model content with functionCall parts; a function response turn is
    a user content with functionResponse parts. NOTE: a call turn must follow a user turn (a plain
    one or a response turn), so a history cannot start with a call.
    """
    if not contents:
        raise invalid(NO_CONTENTS)
    previous = None
    for index, content in enumerate(contents):
        # The SDK omits the role only for a lone user message; the API reads it as "user".
        role = content.get("role") or "user"
        if role not in ROLES:
            raise invalid(BAD_ROLE)
        if not content.get("parts"):
            raise invalid(f"* GenerateContentRequest.contents[{index}].parts: contents.parts must not be empty.")
        calls, responses = _count(content, "functionCall"), _count(content, "functionResponse")
        if calls and (role != "model" or previous is None or (previous.get("role") or "user") != "user"):
            raise invalid(CALL_AFTER_USER)
        if responses:
            if role != "user" or previous is None or not _count(previous, "functionCall"):
                raise invalid(RESPONSE_AFTER_CALL)
            if responses != _count(previous, "functionCall"):
                raise invalid(PARTS_MISMATCH)
        previous = content

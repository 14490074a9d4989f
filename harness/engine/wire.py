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
import re

from harness.models import (
    AGENTS,
    CLOSED_TO_NEW_KEYS,
    EMBEDDING_METHODS,
    EMBEDDING_MODELS,
    FUNCTION_ROLE_REFUSED,
    INTERACTIONS_ONLY,
    LATEST,
    MODELS,
    NOT_FOUND,
    ROUTED,
    SHUT_DOWN,
    legacy_models_allowed,
)

ROLES = ("user", "model")
CALL_AFTER_USER = (
    "Please ensure that function call turn comes immediately after a user turn "
    "or after a function response turn."
)
RESPONSE_AFTER_CALL = (
    "Please ensure that function response turn comes immediately after a function call turn."
)
PARTS_MISMATCH = (
    "Please ensure that the number of function response parts is equal to the number of "
    "function call parts of the function call turn."
)
BAD_ROLE = "Please use a valid role: user, model."
NO_CONTENTS = "* GenerateContentRequest.contents: contents is not specified"
# protobuf's default recursion limit for parsing [OFF protobuf docs]; a body deeper is refused
MAX_DEPTH = 100


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


# NOTE: Google's JSON front end answers a body it cannot tokenise with "Invalid JSON payload
# received. Unexpected token." ([3P] memory of its replies; no public report quoting the
# byte-order-mark, NaN or duplicate-key cases was found, 2026-12-01), so those three are refused in
# that form, with what was seen.
UNEXPECTED = "Invalid JSON payload received. Unexpected token."
_BOM = b"\xef\xbb\xbf"


class _Refused(ValueError):
    """A body Google's parser refuses where Python's json module would read it."""


def _no_constants(name: str):
    raise _Refused(f"{UNEXPECTED} {name} is not a JSON number: send a finite number.")


def _unique(pairs: list) -> dict:
    keys = [key for key, _ in pairs]
    if len(set(keys)) != len(keys):
        twice = next(key for key in keys if keys.count(key) > 1)
        raise _Refused(
            f'Invalid JSON payload received. Duplicate field "{twice}": a name may appear once in '
            "an object."
        )
    return dict(pairs)


# Laxer than strict JSON where Google's parser is: the cookbook's REST quickstarts send bodies with
# a comma before `}` or `]` and with raw line breaks inside a string, and their saved outputs show
# Gemini's 200 (google-gemini/cookbook at e26e33d2, 2026-06-17: rest/Caching_REST cell 16,
# rest/Prompting_REST cells 22 and 24, rest/Embeddings_REST cell 8, rest/JSON_mode_REST cell 8, read
# 2026-12-02). Nothing else lax (comments, single quotes, bare names) was seen accepted, so nothing
# else is.
_STRING_OR_TRAILING_COMMA = re.compile(rb'"(?:[^"\\]|\\.)*"|,(?=\s*[}\]])', re.S)


def _without_trailing_commas(raw: bytes) -> bytes:
    """`{"a": [1, 2,],}` -> `{"a": [1, 2 ] }`; a comma inside a string stays. NOTE: a space, not
    nothing, takes the comma's place, so a later error still names the column the student sees."""

    def blank_trailing(found):
        if found.group(0) != b",":
            return found.group(0)
        after_value = raw[: found.start()].rstrip()[-1:] not in (b"[", b"{", b",")
        return b" " if after_value else b","  # `[,]` stays broken, as Google's parser leaves it

    return _STRING_OR_TRAILING_COMMA.sub(blank_trailing, raw)


def _loads(raw: bytes):
    """JSON with raw control characters allowed in strings; trailing commas read only when the
    body needs it (a rare body pays the extra pass, and a broken one is reported where it first
    breaks)."""

    def read(text: bytes):
        return json.loads(
            text, parse_constant=_no_constants, object_pairs_hook=_unique, strict=False
        )

    try:
        return read(raw)
    except json.JSONDecodeError as first:
        try:
            return read(_without_trailing_commas(raw))
        except json.JSONDecodeError:
            raise first from None


def parse_body(raw: bytes) -> dict:
    """The JSON object in a request body ({} when empty); a 400 that says where the JSON breaks.

    Stricter than Python's json module where Google's parser is: no byte-order mark, no NaN or
    Infinity, no name twice in one object. Laxer where it is: a trailing comma, a raw line break in
    a string."""
    if not raw.strip():
        return {}
    if raw.startswith(_BOM):
        raise invalid(
            f"{UNEXPECTED} The body starts with a byte-order mark (EF BB BF): send UTF-8"
            " without it."
        )
    try:
        body = _loads(raw)
    except RecursionError:  # deeper than Python's parser goes
        raise _too_deep() from None
    except _Refused as err:
        raise invalid(str(err)) from None
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        where = (
            f" at line {err.lineno}, column {err.colno} (character {err.pos})"
            if isinstance(err, json.JSONDecodeError)
            else ""
        )
        detail = err.msg if isinstance(err, json.JSONDecodeError) else "it is not UTF-8"
        raise invalid(
            f"Invalid JSON payload received. The request body is not valid JSON: {detail}{where}."
        ) from None
    if not isinstance(body, dict):
        raise invalid("Invalid JSON payload received. The request body must be a JSON object.")
    if _depth(body) > MAX_DEPTH:
        raise _too_deep()
    return body


def _depth(value) -> int:
    """How deep objects and lists nest in `value`, one level at a time (iterative: a hostile body
    cannot blow the stack)."""
    depth, level = 0, [value]
    while level := [item for item in level if isinstance(item, (dict, list))]:
        depth += 1
        level = [
            child for item in level for child in (item.values() if isinstance(item, dict) else item)
        ]
    return depth


def _too_deep() -> WireError:
    return invalid(
        "Invalid JSON payload received. The request nests objects and lists more than "
        f"{MAX_DEPTH} levels deep."
    )


def resolve_model(name: str, api_version: str = "v1beta", method: str = "generateContent") -> str:
    """The id of the model that answers `name`, as Gemini serves a new key; 404 otherwise.

    `models/gemini-3.8-flash` -> `gemini-3.8-flash`; a deprecated id -> the model it is routed to; a
    `-latest` alias -> its model on v1beta only; a model closed to new keys -> Gemini's 404 for it,
    unless WORKBOOK_LEGACY_MODELS=1 (harness/models.py); a shut-down id, or an embedding model asked
    for what it does not do, -> Gemini's plain 404 (an embedding model answers countTokens here); a
    hosted agent (Deep Research) -> Gemini's 400: it answers only through the Interactions API.
    """
    model = name.removeprefix("models/")
    if model in AGENTS and method != "get":
        raise WireError(400, "INVALID_ARGUMENT", INTERACTIONS_ONLY)
    if model in SHUT_DOWN or (model in EMBEDDING_MODELS and method not in EMBEDDING_METHODS):
        raise WireError(
            404, "NOT_FOUND", NOT_FOUND.format(model=model, version=api_version, method=method)
        )
    if model in EMBEDDING_MODELS:
        return model
    served = ROUTED.get(model) or (LATEST.get(model) if api_version == "v1beta" else None) or model
    row = MODELS.get(served)
    if row is not None and not row.open_to_new_keys and not legacy_models_allowed():
        raise WireError(404, "NOT_FOUND", CLOSED_TO_NEW_KEYS.format(model=served))
    if row is None:
        raise WireError(
            404,
            "NOT_FOUND",
            NOT_FOUND.format(model=model, version=api_version, method=method)
            + f" (The glass box answers for: {', '.join(_served_ids(api_version))}.)",
        )
    return served


def _served_ids(api_version: str) -> list[str]:
    """What a request may name here: the open rows (and the closed ones for a legacy project),
    routed ids, and on v1beta the `-latest` aliases."""
    rows = [m for m, row in MODELS.items() if row.open_to_new_keys or legacy_models_allowed()]
    return rows + list(ROUTED) + (list(LATEST) if api_version == "v1beta" else [])


# A Part's `data` oneof; proto3 reads an empty string as unset, so `{"text": ""}` has no data ([3P]
# Gemini's 400 as quoted in google-gemini/gemini-cli #5575, genkit-ai/genkit #3816, 2025).
DATA_FIELDS = (
    "text",
    "inlineData",
    "fileData",
    "functionCall",
    "functionResponse",
    "executableCode",
    "codeExecutionResult",
    "toolCall",
    "toolResponse",
)
NO_DATA = (
    "* {where}.parts[{index}].data: required oneof field 'data' must have one initialized field"
)


def check_parts(parts: list, where: str) -> None:
    """Gemini's 400 for a part with no data (an empty text, or nothing at all). NOTE: a part holding
    only a thoughtSignature (Gemini 3 ends some answers with one on an empty text) goes back as it
    came.
    """
    for index, part in enumerate(parts):
        if not any(part.get(field) not in (None, "") for field in DATA_FIELDS) and not part.get(
            "thoughtSignature"
        ):
            raise invalid(NO_DATA.format(where=where, index=index))


# Gemini's built-in tools, by their field in `Tool`. The glass box refuses each with a 400 naming it
# rather than answer without it: an empty `groundingMetadata` would tell the notebook that a search
# ran and found nothing, which Gemini never says, and code execution cannot be faked honestly.
# Online they work.
BUILT_IN_TOOLS = {
    "googleSearch": "google_search",
    "googleSearchRetrieval": "google_search_retrieval",
    "codeExecution": "code_execution",
    "urlContext": "url_context",
    "computerUse": "computer_use",
    "fileSearch": "file_search",
    "googleMaps": "google_maps",
    "enterpriseWebSearch": "enterprise_web_search",
    "retrieval": "retrieval",
}


def check_built_in_tools(tools: list) -> None:
    """A 400 naming the first built-in tool in `tools` (the glass box has no network and runs no
    code)."""
    for index, tool in enumerate(tools):
        for field, name in BUILT_IN_TOOLS.items():
            if field in tool:
                raise invalid(
                    f"* GenerateContentRequest.tools[{index}].{name}: the glass box cannot run"
                    f" Gemini's built-in tool {name} (it is offline and runs no code), and"
                    " answering without it would hide that. Remove it from tools, declare a"
                    " function instead, or run online with a key."
                )


def _count(content: dict, key: str) -> int:
    return sum(1 for part in content.get("parts") or [] if key in part)


# A function response turn may say role "function" (Google's 2024 REST examples, and public client
# code sending it to Gemini, seen 2026-12-01) or "tool" (the cookbook's Function_calling quickstart,
# cell 36: its saved output, unchanged since before 2025-11-18, is a 2.5 model's answer) on the
# models before 3.5, which read both as the user's turn. From 3.5 on both are Gemini's 400 (the
# row's `function_role_accepted`, harness/models.py, with its sources). Any other role stays
# BAD_ROLE.
RESPONSE_ROLES = ("function", "tool")


def response_roles_as_user(contents: list, model: str) -> list:
    """`contents` with a function response turn under role function/tool read as role user, on a
    model that takes it; Gemini's 400 naming the role on one that does not."""

    def reads_as(content):
        parts = content.get("parts") or []
        if (
            content.get("role") in RESPONSE_ROLES
            and parts
            and all("functionResponse" in p for p in parts)
        ):
            if not MODELS[model].function_role_accepted:
                raise invalid(FUNCTION_ROLE_REFUSED.format(role=content["role"]))
            return dict(content, role="user")
        return content

    return [reads_as(content) for content in contents]


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
            raise invalid(
                f"* GenerateContentRequest.contents[{index}].parts: contents.parts must not be"
                " empty."
            )
        check_parts(content["parts"], f"GenerateContentRequest.contents[{index}]")
        calls, responses = _count(content, "functionCall"), _count(content, "functionResponse")
        if calls and (
            role != "model" or previous is None or (previous.get("role") or "user") != "user"
        ):
            raise invalid(CALL_AFTER_USER)
        if responses:
            if role != "user" or previous is None or not _count(previous, "functionCall"):
                raise invalid(RESPONSE_AFTER_CALL)
            if responses != _count(previous, "functionCall"):
                raise invalid(PARTS_MISMATCH)
        previous = content

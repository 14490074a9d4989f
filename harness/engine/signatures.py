"""Thought signatures, as Gemini 3 and 4 enforce them in function calling.

A model that requires them ([OFF] ai.google.dev/gemini-api/docs/thought-signatures, read 2026-12-01)
puts a `thoughtSignature` on the first functionCall part of each step it answers (parallel calls:
the first only) and checks, on every request, that each step of the *current turn* still carries
its own: the contents after the latest user message with text (a functionResponse does not start a
turn). Earlier turns are not checked. The glass box does the same, with a signature derived from the
request (a hash: the same request always gets the same signature, and no secret is involved):

    >>> turn = [{"role": "user", "parts": [{"text": "Fix the tests."}]},
    ...         {"role": "model", "parts": [{"functionCall": {"name": "run_command", "args": {}}}]},
    ...         {"role": "user", "parts": [{"functionResponse": {"name": "run_command", "response": {}}}]}]
    >>> check_signatures(turn, "gemini-3.8-flash")
    Traceback (most recent call last):
    ...
    harness.engine.wire.WireError: 400 INVALID_ARGUMENT: Function call is missing a thought_signature in functionCall parts. ... function call `default_api:run_command` , position 2. ...
    >>> turn[1]["parts"][0]["thoughtSignature"] = "skip_thought_signature_validator"  # a documented dummy
    >>> check_signatures(turn, "gemini-3.8-flash")  # accepted
    >>> turn[1]["parts"][0]["thoughtSignature"] = "bWFkZSB1cA=="  # one the glass box never gave
    >>> check_signatures(turn, "gemini-3.8-flash")
    Traceback (most recent call last):
    ...
    harness.engine.wire.WireError: 400 INVALID_ARGUMENT: Corrupted thought signature.

On the wire a signature is base64 (`types.Part.thought_signature` is bytes in the SDK).
"""  # noqa: E501

import base64
import hashlib

from harness.engine.prompt import canonical
from harness.engine.wire import invalid
from harness.models import model_row

# The dummy values the docs allow for calls the model did not make ([OFF] docs/thought-signatures,
# FAQ: both on the Gemini API; the first on Vertex too), as REST text or as the SDK's bytes
# (base64).
DUMMY_SIGNATURES = ("skip_thought_signature_validator", "context_engineering_is_the_way_to_go")
_DUMMIES = set(DUMMY_SIGNATURES) | {base64.b64encode(d.encode()).decode() for d in DUMMY_SIGNATURES}
_ISSUED = (  # what every signature the glass box gives starts with, before base64
    b"glass-box thought "
)
# A signature the model did not issue: Gemini's 400 as quoted in public reports, Nov 2025-Jan 2026
# ([3P] google-gemini/gemini-cli #13467, charmbracelet/crush #1698).
CORRUPTED = "Corrupted thought signature."
# Worded as Gemini's 400 is quoted in public reports, Jan-Aug 2026 ([3P] e.g. csells/dartantic #86,
# lbjlaq/Antigravity-Manager #2157). NOTE: "position" is taken as the 1-based index of the content
# in `contents` (a call in the second content is "position 2", as in most reports): an assumption.
MISSING = (
    "Function call is missing a thought_signature in functionCall parts. This is required for tools"
    " to work correctly, and missing thought_signature may lead to degraded model performance."
    " Additional data, function call `default_api:{name}` , position {position}. Please refer to"
    " https://ai.google.dev/gemini-api/docs/thought-signatures for more details."
)


def current_turn_start(contents: list) -> int:
    """Index of the latest user content holding text (0 when there is none): where the turn
    begins."""
    for index in range(len(contents) - 1, -1, -1):
        content = contents[index]
        if (content.get("role") or "user") == "user" and any(
            "text" in part for part in content.get("parts") or []
        ):
            return index
    return 0


def check_signatures(contents: list, model: str) -> None:
    """Raise Gemini's 400 when a step of the current turn lost the signature on its first call."""
    if not model_row(model).signatures_required:
        return
    turn = range(current_turn_start(contents), len(contents))
    models = [
        (index, contents[index])
        for index in turn
        if (contents[index].get("role") or "user") == "model"
    ]
    for index, content in models:  # a missing signature is named first, wherever a corrupted one is
        calls = [part for part in content.get("parts") or [] if "functionCall" in part]
        if calls and not calls[0].get("thoughtSignature"):
            raise invalid(
                MISSING.format(name=calls[0]["functionCall"].get("name", ""), position=index + 1)
            )
    if any(
        not _issued_here(part["thoughtSignature"])
        for _, content in models
        for part in content.get("parts") or []
        if part.get("thoughtSignature")
    ):
        raise invalid(CORRUPTED)


def _issued_here(signature: str) -> bool:
    """A documented dummy, or a signature this glass box gave (stateless: it starts the same
    way)."""
    if signature in _DUMMIES:
        return True
    try:
        return base64.b64decode(
            signature + "=" * (-len(signature) % 4),
            altchars=b"-_" if "-" in signature or "_" in signature else None,
        ).startswith(_ISSUED)
    except ValueError:
        return False


def sign(parts: list, request: dict, model: str) -> list:
    """The parts with a signature on the first functionCall, for models that require one; an
    answer without a call carries one on its last part. NOTE: the docs say a signature may come
    on text parts too ([OFF] docs/thought-signatures, read 2026-12-02), and the cookbook's
    Get_started (June 2026) prints `response.parts[1].thought_signature` of a Gemini 3 answer
    after its thought summary as bytes: the last part."""
    if not model_row(model).signatures_required or not parts:
        return parts
    first = next((i for i, part in enumerate(parts) if "functionCall" in part), len(parts) - 1)
    digest = hashlib.sha256(canonical([model, request.get("contents"), parts]).encode()).digest()
    signed = dict(parts[first], thoughtSignature=base64.b64encode(_ISSUED + digest[:18]).decode())
    return parts[:first] + [signed] + parts[first + 1 :]

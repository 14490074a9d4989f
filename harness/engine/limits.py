"""Limits are real: the model's context window, the generation settings' ranges, and where an answer
stops.

    >>> check_input(2_000_000, "gemini-3.8-flash")
    Traceback (most recent call last):
    ...
    harness.engine.wire.WireError: 400 INVALID_ARGUMENT: The input token count (2000000) exceeds the maximum number of tokens allowed (1048576).
    >>> stop_at("Total: 12.50 EUR. Thank you!", ["."])
    'Total: 12'
    >>> cut_to_tokens("one two three four", 2)
    'one two'

Limits come from the model's row in harness/models.py. Thought tokens count against
`maxOutputTokens` before the answer does (so a small limit with thinking on can leave no text at
all, finishReason MAX_TOKENS: [3P] widely reported for 2.5 and 3.x, 2025-2026).
"""  # noqa: E501

import re

from harness.engine.wire import invalid
from harness.models import model_row
from harness.tokens import approx_tokens

# Gemini's 400, as quoted in public reports ([3P] google-gemini/gemini-cli #4231, #6678, 2025).
TOO_LONG = "The input token count ({count}) exceeds the maximum number of tokens allowed ({limit})."
# [OFF] ai.google.dev/api/rest/v1/GenerationConfig (read 2026-12-01): "The set of character
# sequences (up to 5)", temperature "can range from [0.0, 2.0]". topP is a probability. The upper
# bound of candidateCount is [3P] (Vertex pages give 1-8; the Gemini API page does not state one):
# unverified.
MAX_STOP_SEQUENCES = 5
MAX_CANDIDATES = 8
# (field, low, high) for the numbers the glass box checks; high None = the model's output limit.
RANGES = (
    ("temperature", 0.0, 2.0),
    ("topP", 0.0, 1.0),
    ("topK", 1, None),
    ("candidateCount", 1, MAX_CANDIDATES),
    ("maxOutputTokens", 1, None),
)
# [OFF] ai.google.dev/api/generate-content#generationconfig (read 2026-12-01) lists text/plain,
# application/json and text/x.enum; Gemini's 400 as remembered from public reports also names XML
# and YAML. NOTE: that wording was not found in the search corpus (2026-12-01): the closest form to
# Gemini's own.
RESPONSE_MIME_TYPES = (
    "text/plain",
    "application/json",
    "application/xml",
    "application/yaml",
    "text/x.enum",
)
BAD_MIME = (
    "* GenerateContentRequest.generation_config.response_mime_type: allowed mimetypes are"
    " `text/plain`, `application/json`, `application/xml`, `application/yaml` and `text/x.enum`."
)
# Gemini's 400 for logprobs, as quoted in public reports: "Logprobs is not enabled for
# models/gemini-2.5-pro" ([3P] mscraftsman/generative-ai #135, 2025-11-21) and for
# models/gemini-2.5-flash-lite (Vela-Research/ think-reason-learn #34, 2025-10-22); Vertex refuses
# Gemini 3.5 Flash the same way ([3P] GoogleCloudPlatform/generative-ai #2947, 2026-06-22). No
# report found (2026-12-02) of a 2.5 or newer model answering with logprobs, so no model of the
# table gives them.
NO_LOGPROBS = "Logprobs is not enabled for models/{model}"
# 3.5 Flash-Lite's two refusals (harness/models.py, Model.penalties_refused / prefill_refused).
# NOTE: the docs say only that these "throw an error"; Gemini's words were not found (2026-12-02),
# so these are the glass box's.
PENALTY_REFUSED = (
    "* GenerateContentRequest.generation_config.{field}: models/{model} does not support a custom "
    "value; leave it unset."
)
PREFILL_REFUSED = (
    "* GenerateContentRequest.contents: models/{model} does not support a request whose last turn "
    "has role 'model' (a prefill); end the contents on a user turn."
)
_PIECE = re.compile(r"\s*(\w+|[^\w\s])")


def check_input(prompt_tokens: int, model: str) -> None:
    """Gemini's 400 when the prompt is over the model's input token limit."""
    limit = model_row(model).input_token_limit
    if prompt_tokens > limit:
        raise invalid(TOO_LONG.format(count=prompt_tokens, limit=limit))


def check_generation(config: dict, model: str) -> None:
    """A 400 naming the generation setting that is out of range, and the range.

    Glass-box wording in Google's `* Request.field: problem` style (the exact words were not found).
    """
    row = model_row(model)
    for field, low, high in RANGES:
        value = config.get(field)
        top = row.output_token_limit if high is None and field == "maxOutputTokens" else high
        # NOTE: written so that a NaN (proto JSON reads "NaN" for a float) is out of every range.
        if value is not None and not (value >= low and (top is None or value <= top)):
            span = f"from {low} to {top}" if top is not None else f"at least {low}"
            name = re.sub(r"([A-Z])", r"_\1", field).lower()
            raise invalid(
                f"* GenerateContentRequest.generation_config.{name}: {value} is out of range; "
                f"models/{row.id} accepts {span}."
            )
    if config.get("responseMimeType") not in (None, "", *RESPONSE_MIME_TYPES):
        raise invalid(BAD_MIME)
    for field in ("presencePenalty", "frequencyPenalty"):
        if row.penalties_refused and config.get(field):
            name = re.sub(r"([A-Z])", r"_\1", field).lower()
            raise invalid(PENALTY_REFUSED.format(field=name, model=row.id))
    if config.get("responseLogprobs") or config.get("logprobs"):
        raise invalid(NO_LOGPROBS.format(model=row.id))
    sequences = config.get("stopSequences") or []
    if len(sequences) > MAX_STOP_SEQUENCES:
        raise invalid(
            f"* GenerateContentRequest.generation_config.stop_sequences: {len(sequences)} stop "
            f"sequences given; at most {MAX_STOP_SEQUENCES} are allowed."
        )


def check_turns(contents: list, model: str) -> None:
    """A 400 for a prefill (the last turn the model's) on a model that refuses one
    (harness/models.py)."""
    if (
        model_row(model).prefill_refused
        and contents
        and (contents[-1] or {}).get("role") == "model"
    ):
        raise invalid(PREFILL_REFUSED.format(model=model_row(model).id))


def cut_to_tokens(text: str, budget: int) -> str:
    """The longest start of `text`, cut between pieces, that costs at most `budget` tokens."""
    end, spent = 0, 0
    for piece in _PIECE.finditer(text):
        spent += approx_tokens(piece.group(1))
        if spent > budget:
            break
        end = piece.end()
    return text[:end]


def stop_at(text: str, sequences: list) -> str:
    """`text` cut just before the first stop sequence in it (unchanged when none occurs)."""
    hits = [text.find(sequence) for sequence in sequences if sequence and sequence in text]
    return text[: min(hits)] if hits else text

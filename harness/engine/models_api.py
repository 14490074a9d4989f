"""`models.list` and `models.get`: the tables of harness/models.py in the shape of Gemini's Model
resource.

So a program learns a model's limits offline exactly as it does online:

    >>> resource(model_row("gemini-3.8-flash"))["inputTokenLimit"]
    1048576
    >>> embedding_resource(EMBEDDING_MODELS["gemini-embedding-001"])["supportedGenerationMethods"]
    ['embedContent', 'countTextTokens', 'countTokens']
    >>> # client.models.get(model="gemini-3.8-flash").input_token_limit  -> 1048576, on the glass box too

The fields are those of the REST API's Model ([OFF] ai.google.dev/api/models, read 2026-12-01):
name, version, displayName, description, inputTokenLimit, outputTokenLimit,
supportedGenerationMethods, temperature, maxTemperature, topP, topK, thinking. The sampling defaults
are the values the API reports for current Gemini models ([3P] copies of models.list output,
2025-2026); the glass box does not sample, so they change nothing here. An embedding model has no
sampling fields and an output limit of 1 (the same copies). The descriptions are the glass box's own
words.

What a key sees listed: the generative rows open to it, then the ids Gemini routes to another model
(listed under their own name, with the limits of the model that answers), then the embedding
models, then on v1beta the `-latest` aliases. Shut-down ids are not listed.
"""

from harness.engine.wire import WireError, resolve_model
from harness.models import (
    CLOSED_TO_NEW_KEYS,
    EMBEDDING_METHODS,
    EMBEDDING_MODELS,
    LATEST,
    MODELS,
    ROUTED,
    legacy_models_allowed,
    model_row,
)

METHODS = ["generateContent", "countTokens", "createCachedContent", "batchGenerateContent"]
PAGE_SIZE, MAX_PAGE_SIZE = 50, 1000  # [OFF] models.list: 50 per page unless asked, at most 1000


def _display_name(name: str) -> str:
    """`gemini-3.8-flash` -> `Gemini 3.8 Flash`."""
    return " ".join(w if w[:1].isdigit() else w.capitalize() for w in name.split("-"))


def resource(row, name: str = "") -> dict:
    """One Model resource for a row of the table (under `name` for an alias or a routed id of
    it)."""
    name = name or row.id
    if name in ROUTED:
        description = f"deprecated: requests are served by {row.id}."
    else:
        description = f"{row.status}, as of {row.as_of}. {row.note}".strip()
    return {
        "name": f"models/{name}",
        "version": name.removeprefix("gemini-").split("-")[0],
        "displayName": _display_name(name),
        "description": description,
        "inputTokenLimit": row.input_token_limit,
        "outputTokenLimit": row.output_token_limit,
        "supportedGenerationMethods": METHODS,
        "temperature": 1.0,
        "maxTemperature": 2.0,
        "topP": 0.95,
        "topK": 64,
        "thinking": row.default_thinking != "off" or bool(row.thinking_levels),
    }


def embedding_resource(row) -> dict:
    """The Model resource of an embedding model: what it embeds, its input limit, the methods it
    lists."""
    kinds = "text, images, audio, video and PDFs" if row.multimodal else "text"
    return {
        "name": f"models/{row.id}",
        "version": row.version,
        "displayName": _display_name(row.id),
        "description": (
            f"Embeds {kinds} as vectors of up to {row.dimensions} values, as of {row.as_of}."
        ),
        "inputTokenLimit": row.input_token_limit,
        "outputTokenLimit": 1,
        "supportedGenerationMethods": list(EMBEDDING_METHODS),
    }


def listed(api_version: str = "v1beta") -> list[dict]:
    """Every Model resource this key may call, in the order models.list gives them."""
    rows = [
        resource(row) for row in MODELS.values() if row.open_to_new_keys or legacy_models_allowed()
    ]
    rows += [resource(MODELS[served], routed) for routed, served in ROUTED.items()]
    rows += [embedding_resource(row) for row in EMBEDDING_MODELS.values()]
    if api_version == "v1beta":
        rows += [resource(MODELS[model], alias) for alias, model in LATEST.items()]
    return rows


def list_models(page_size: str = "", page_token: str = "", api_version: str = "v1beta") -> dict:
    """A page of `listed`; `nextPageToken` while more remain."""
    size = (
        min(int(page_size), MAX_PAGE_SIZE) if page_size.isdigit() and int(page_size) else PAGE_SIZE
    )
    start = int(page_token) if page_token.isdigit() else 0
    rows = listed(api_version)
    page = {"models": rows[start : start + size]}
    if start + size < len(rows):
        page["nextPageToken"] = str(start + size)
    return page


def get_model(name: str, api_version: str) -> dict:
    """The Model resource for `name`; Gemini's 404 when this key cannot call it (see
    wire.resolve_model)."""
    asked = name.removeprefix("models/")
    if asked in EMBEDDING_MODELS:
        return embedding_resource(EMBEDDING_MODELS[asked])
    try:
        served = resolve_model(asked, api_version, "get")
    except WireError as error:
        if error.message == CLOSED_TO_NEW_KEYS.format(model=asked):
            raise
        raise WireError(
            404,
            "NOT_FOUND",
            f"models/{asked} is not found for API version {api_version}. "
            "Call ListModels to see the list of available models.",
        ) from None
    return resource(model_row(served), asked if asked != served else "")

"""What one call cost, read from the response's usage metadata (exercise 0.1).

Gemini reports four numbers that matter for the bill. The trap: `prompt_token_count` already
INCLUDES the cached tokens, so the input billed at the full rate is prompt - cached. Thinking
tokens are billed as output. A field the API left out arrives as None and means 0.

>>> from google.genai import types
>>> describe_usage(types.GenerateContentResponseUsageMetadata(
...     prompt_token_count=1200, cached_content_token_count=1024, candidates_token_count=40,
...     thoughts_token_count=100, total_token_count=1340))
{'prompt': 1200, 'cached': 1024, 'uncached': 176, 'output': 140, 'total': 1340}
"""

from collections.abc import Mapping

from google.genai import types

from harness.plumbing.arguments import (
    checked,
    require_instance,
    require_int,
    require_non_empty_text,
    shown,
)

_USAGE_FIELDS = {  # snake_case attribute -> camelCase key of the REST JSON (and of recorded bundles)
    "prompt_token_count": "promptTokenCount",
    "cached_content_token_count": "cachedContentTokenCount",
    "candidates_token_count": "candidatesTokenCount",
    "thoughts_token_count": "thoughtsTokenCount",
}


_UsageMetadata = types.GenerateContentResponseUsageMetadata
# one usage record: a response's usage_metadata, or a dict of its fields
Usage = _UsageMetadata | Mapping
# Every key a usage dict may hold: the SDK's field names and the REST API's camelCase names.
_KEYS = frozenset(_UsageMetadata.model_fields) | {
    f.alias for f in _UsageMetadata.model_fields.values() if f.alias
}


def require_usage(name: str, usage):
    """`usage` if it is one usage record: a response's usage_metadata, or a dict of its fields
    (snake or camelCase, as recordings hold them); else TypeError / ValueError naming `name`. A
    dict with a key that is no usage field is refused: `{"prompt": 100}` would otherwise bill as
    0 tokens."""
    require_instance(
        name,
        usage,
        (_UsageMetadata, Mapping),
        "a response's usage_metadata (or a dict of its token counts)",
    )
    if isinstance(usage, Mapping):
        unknown = sorted(map(str, set(usage) - _KEYS))
        if unknown:
            raise ValueError(
                f"{name} has no field {unknown[0]!r}; its token counts are"
                f" {', '.join(_USAGE_FIELDS)} (or {', '.join(_USAGE_FIELDS.values())})."
            )
    return usage


def _field(name: str, field) -> None:
    require_non_empty_text(name, field)
    if field not in _USAGE_FIELDS:
        raise ValueError(f"{name} must be one of {', '.join(_USAGE_FIELDS)}, got {shown(field)}.")


@checked(usage=require_usage, field=_field)
def token_count(usage: Usage, field: str) -> int:
    """One usage field as an int (None -> 0), from a UsageMetadata or a snake/camelCase dict."""
    if isinstance(usage, Mapping):
        value = usage.get(field, usage.get(_USAGE_FIELDS[field]))
    else:
        value = getattr(usage, field)
    return 0 if value is None else require_int(f"usage.{field}", value, 0)


@checked(usage=require_usage)
def output_tokens(usage: Usage) -> int:
    """Tokens billed at the output rate: the answer's (candidates) plus the thinking (thoughts)."""
    count = token_count.unchecked
    return count(usage, "candidates_token_count") + count(usage, "thoughts_token_count")


@checked
def describe_usage(usage: types.GenerateContentResponseUsageMetadata) -> dict[str, int]:
    """Token counts of one call: prompt (incl. cached), cached, uncached, output (incl.
    thinking), total."""
    prompt = usage.prompt_token_count or 0
    cached = usage.cached_content_token_count or 0
    return {
        "prompt": prompt,
        "cached": cached,
        "uncached": prompt - cached,
        "output": output_tokens.unchecked(usage),
        "total": usage.total_token_count or 0,
    }

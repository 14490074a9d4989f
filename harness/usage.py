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
from google.genai import types
from harness.arguments import require_instance


def describe_usage(usage: types.GenerateContentResponseUsageMetadata) -> dict[str, int]:
    """Token counts of one call: prompt (incl. cached), cached, uncached, output (incl. thinking), total."""
    require_instance("usage", usage, types.GenerateContentResponseUsageMetadata, "the usage_metadata of a response")
    prompt = usage.prompt_token_count or 0
    cached = usage.cached_content_token_count or 0
    output = (usage.candidates_token_count or 0) + (usage.thoughts_token_count or 0)
    return {"prompt": prompt, "cached": cached, "uncached": prompt - cached, "output": output,
            "total": usage.total_token_count or 0}

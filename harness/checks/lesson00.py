"""Checks for lesson 00, the first call: describe_usage (0.1)."""
from google.genai import types

from harness.checks import call, exercise, rule

KEYS = ("prompt", "cached", "uncached", "output", "total")


def _usage(**fields) -> types.GenerateContentResponseUsageMetadata:
    return types.GenerateContentResponseUsageMetadata(**fields)


def _described(ex, fn, usage):
    out = call(ex, fn, usage)
    rule(isinstance(out, dict) and all(key in out for key in KEYS), ex,
         f"describe_usage must return a dict with the keys {', '.join(KEYS)}; got {out!r:.120}.",
         "build the dict from the usage fields; see the table in the lesson for what each key means.")
    rule(all(isinstance(out[key], int) and not isinstance(out[key], bool) for key in KEYS), ex,
         f"every value must be an int; got {dict((k, out[k]) for k in KEYS)}.",
         "a field the API left out is None: what does it count for in a bill?")
    return out


@exercise("0.1", "describe_usage: read a call's token counts", reference="harness.usage.describe_usage")
def check_describe_usage(fn):
    ex = "0.1"
    out = _described(ex, fn, _usage(prompt_token_count=1500, cached_content_token_count=1024,
                                     candidates_token_count=60, thoughts_token_count=200, total_token_count=1760))
    rule(out["prompt"] == 1500 and out["cached"] == 1024 and out["total"] == 1760, ex,
         f"prompt, cached and total must be the reported counts; got {out}.",
         "read prompt_token_count, cached_content_token_count and total_token_count.")
    rule(out["uncached"] == 476, ex, f"with 1500 prompt and 1024 cached tokens, uncached is not {out['uncached']}.",
         "does prompt_token_count include the cached tokens, or come on top of them?")
    rule(out["output"] == 260, ex, f"with 60 candidate and 200 thinking tokens, output is not {out['output']}.",
         "thinking tokens are billed as output tokens too.")
    out = _described(ex, fn, _usage(prompt_token_count=18, candidates_token_count=15, total_token_count=33))
    rule((out["cached"], out["uncached"], out["output"]) == (0, 18, 15), ex,
         f"with no cache and no thinking reported (both None), got {out}.",
         "None means the API had nothing to report: count it as 0.")
    out = _described(ex, fn, _usage())
    rule(all(out[key] == 0 for key in KEYS), ex, f"an empty usage must give all zeros, got {out}.",
         "every field can be None, even the prompt count.")
    return "prompt includes cached, thinking bills as output, None counts as 0"

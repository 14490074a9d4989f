"""Checks for lesson 00, the first call: describe_usage (0.1).

Each rule is tried on a usage built so that one mistake, and only it, changes the answer: the cache
is on or off, thinking is on or off, a field is None or not, and the reported total is not the sum
of the other fields (Gemini's total also counts tool-use prompt tokens), so a total recomputed by
hand shows.
"""

from google.genai import types

from harness.checks import ExerciseFailed, call, exercise, rule
from harness.checks.compare import Case, agreeing, compare, generator
from harness.usage import describe_usage

KEYS = ("prompt", "cached", "uncached", "output", "total")
NONE_HINT = (
    "a field the API has nothing to report for arrives as None: what does it count for in a bill?"
)


# What an answer's error on the case of 1500 prompt, 1024 cached, 60 candidate, 200 thinking and 30
# tool-use prompt tokens says it did: each hint names the symptom the check saw, not the formula.
UNCACHED_SYMPTOMS = {
    1024: (
        "your uncached count is the whole prompt: does prompt_token_count include the cached"
        " tokens, or come on top of them?"
    ),
    -476: (
        "your uncached count is 0: the 476 tokens the cache did not serve are billed at the full"
        " rate."
    ),
    200: (
        "your uncached count is 200 too high, the thinking tokens: thoughts are written by the"
        " model, not read from the prompt."
    ),
    230: (
        "your uncached count is 230 too high, the thinking and tool-use tokens: only prompt tokens"
        " are input."
    ),
    30: (
        "your uncached count is 30 too high, the tool-use prompt tokens: they are not part of"
        " prompt_token_count."
    ),
    2048: (
        "your uncached count holds the cached tokens twice: prompt_token_count already includes"
        " them."
    ),
}
OUTPUT_SYMPTOMS = {
    -200: "your output leaves out the 200 thinking tokens: which rate are thoughts billed at?",
    -60: "your output is the thinking tokens alone: the answer's own tokens are output too.",
    30: (
        "your output is 30 too high, the tool-use prompt tokens (a total minus the prompt counts"
        " them): build output from the fields that count what the model writes."
    ),
}


def _usage(**fields) -> types.GenerateContentResponseUsageMetadata:
    return types.GenerateContentResponseUsageMetadata(**fields)


def _described(ex, fn, usage, has_none: bool = False):
    try:
        out = call(ex, fn, usage)
    except ExerciseFailed as failure:
        if has_none and isinstance(failure.__cause__, TypeError):  # None + 1, None - None, ...
            rule(
                False,
                ex,
                "a field reported as None must count as 0, but your function failed on one: "
                f"{failure.rule}",
                NONE_HINT,
            )
        raise
    rule(
        isinstance(out, dict) and all(key in out for key in KEYS),
        ex,
        f"describe_usage must return a dict with the keys {', '.join(KEYS)}; got {out!r:.120}.",
        "build the dict from the usage fields; see the table in the lesson for what each key"
        " means.",
    )
    missing = [key for key in KEYS if out[key] is None]
    rule(
        not missing,
        ex,
        f"a field reported as None must count as 0; you returned None for {', '.join(missing)}.",
        NONE_HINT,
    )
    rule(
        all(isinstance(out[key], int) and not isinstance(out[key], bool) for key in KEYS),
        ex,
        f"every value must be an int; got {dict((k, out[k]) for k in KEYS)}.",
        "token counts are whole numbers: keep them as int.",
    )
    return out


@exercise(
    "0.1", "describe_usage: read a call's token counts", reference="harness.usage.describe_usage"
)
def check_describe_usage(fn):
    """The answer is held to: prompt (cached included), cached, uncached = prompt - cached,
    output (thinking included) and the reported total, as ints, None counting as 0."""
    ex = "0.1"
    plain = _described(
        ex,
        fn,
        _usage(
            prompt_token_count=700,
            cached_content_token_count=0,
            candidates_token_count=40,
            thoughts_token_count=0,
            total_token_count=740,
        ),
    )
    rule(
        (plain["prompt"], plain["cached"], plain["uncached"]) == (700, 0, 700),
        ex,
        f"with 700 prompt tokens and none cached, got prompt={plain['prompt']},"
        f" cached={plain['cached']}, uncached={plain['uncached']}.",
        "read prompt_token_count and cached_content_token_count.",
    )
    out = _described(
        ex,
        fn,
        _usage(
            prompt_token_count=1500,
            cached_content_token_count=1024,
            candidates_token_count=60,
            thoughts_token_count=200,
            tool_use_prompt_token_count=30,
            total_token_count=1790,
        ),
    )
    rule(
        out["prompt"] == 1500,
        ex,
        f"prompt must be the reported prompt count (1500), got {out['prompt']}.",
        "prompt_token_count is already the whole prompt, cached part included.",
    )
    rule(
        out["cached"] == 1024,
        ex,
        f"cached must be the reported cached count (1024), got {out['cached']}.",
        "read cached_content_token_count.",
    )
    rule(
        out["uncached"] == 476,
        ex,
        f"with 1500 prompt and 1024 cached tokens, uncached is not {out['uncached']}.",
        UNCACHED_SYMPTOMS.get(
            out["uncached"] - 476,
            "uncached is the part of the prompt the cache did not serve: what does"
            " prompt_token_count hold, and what does cached_content_token_count hold?",
        ),
    )
    rule(
        out["output"] == 260,
        ex,
        f"with 60 candidate and 200 thinking tokens, output is not {out['output']}.",
        OUTPUT_SYMPTOMS.get(
            out["output"] - 260,
            "which tokens does the model write, and which rate are they billed at?",
        ),
    )
    rule(
        out["total"] == 1790,
        ex,
        f"total must be the total the API reports (1790 here), got {out['total']}.",
        "the reported total can hold tokens none of the other keys count: copy it, do not"
        " rebuild it.",
    )
    out = _described(
        ex, fn, _usage(prompt_token_count=18, candidates_token_count=15, total_token_count=33), True
    )
    rule(
        (out["cached"], out["uncached"], out["output"]) == (0, 18, 15),
        ex,
        f"with no cache and no thinking reported (both None), got {out}.",
        NONE_HINT,
    )
    out = _described(ex, fn, _usage(), True)
    rule(
        all(out[key] == 0 for key in KEYS),
        ex,
        f"an empty usage must give all zeros, got {out}.",
        "every field can be None, even the prompt count.",
    )
    compare(
        ex,
        fn,
        describe_usage,
        _usage_cases(),
        agreeing(
            "prompt includes cached, output includes thinking, None counts as 0, total as reported",
            "compare each key with the table of the exercise.",
            "every key as the table defines it",
            lambda got, want: (
                isinstance(got, dict)
                and all(type(got.get(k)) is int and got[k] == want[k] for k in KEYS)
            ),
        ),
        _smaller_usage,
    )
    return "prompt includes cached, thinking bills as output, None counts as 0"


_FIELDS = (
    "prompt_token_count",
    "cached_content_token_count",
    "candidates_token_count",
    "thoughts_token_count",
    "tool_use_prompt_token_count",
    "total_token_count",
)


def _ucase(fields: dict) -> Case:
    case = Case(_usage(**fields), note=f"describe_usage(usage with {fields or 'no field set'})")
    case.fields = fields
    return case


def _usage_cases() -> list:
    rng = generator()
    cases = []
    for _ in range(60):
        fields = {name: rng.choice((0, 1, 7, 300, 4096)) for name in _FIELDS if rng.random() < 0.6}
        if "cached_content_token_count" in fields:
            fields["prompt_token_count"] = (
                fields.get("prompt_token_count", 0) + fields["cached_content_token_count"]
            )
        cases.append(_ucase(fields))
    return cases


def _smaller_usage(case) -> list:
    return [
        _ucase({k: v for k, v in case.fields.items() if k != name})
        for name in case.fields
        if not (name == "prompt_token_count" and "cached_content_token_count" in case.fields)
    ]

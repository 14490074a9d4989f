"""Thinking costs tokens: how much the glass box "thinks", by a stated rule, and what it shows of
it.

Thinking is on at the model's default level (`default_thinking` in harness/models.py), or at the
`thinkingLevel` or `thinkingBudget` the request sets (not both: Gemini's 400). The glass box does
not think; it reports what thinking would cost, by one deterministic rule:

    thoughtsTokenCount = multiple[level] x answer tokens

    level     minimal  low  medium  high
    multiple  0        1    2       4

A 2.5 model's dynamic budget thinks at medium; `thinkingBudget` 0 turns thinking off and N > 0
caps the medium figure at N. Worked example: an answer of 50 tokens at medium costs 2 x 50 = 100
thought tokens, billed at the output rate (`totalTokenCount` includes them), whatever the prompt.
NOTE: the prompt is left out on purpose, so that thinking and caching stay separate levers in the
lessons: the cache acts on input tokens, the thinking level on output tokens.
With `includeThoughts` the answer starts with one thought part (`"thought": true`) saying that no
reasoning ran; without it the thoughts are counted and not shown, as Gemini does.
"""

from typing import NamedTuple

from harness.engine.wire import invalid
from harness.models import model_row

MULTIPLES = {"minimal": 0, "low": 1, "medium": 2, "high": 4}  # thought tokens per answer token
# the ThinkingLevel enum [OFF SDK types.ThinkingLevel]
LEVELS = (
    "MINIMAL",
    "LOW",
    "MEDIUM",
    "HIGH",
    "XHIGH",
)
# the largest 2.5 budget (2.5 Pro) [OFF thinking docs, as quoted by lobehub/lobehub #8122]
MAX_BUDGET = 32_768
# Gemini's words, as quoted in public reports ([3P] sterlp/eclipse-peon-ai #115, 2026-08-05;
# help.apiyi.com 2026; Roo-Code #4399, 2025). The second is reported for a 2.5 model sent a level.
BOTH = "You can only set only one of thinking budget and thinking level."
NO_LEVELS = "Thinking level is not supported for this model."
BAD_BUDGET = "The thinking budget ({budget}) is invalid."


class Thinking(NamedTuple):
    level: str | None  # a key of MULTIPLES, or None when thinking is off
    budget: int | None  # a cap on thought tokens, from thinkingBudget
    include: bool  # includeThoughts: show a thought part


def resolve(config: dict, model: str) -> Thinking:
    """The thinking a request gets: its thinkingConfig read against the model's row."""
    row = model_row(model)
    asked = config.get("thinkingConfig") or {}
    level, budget = asked.get("thinkingLevel"), asked.get("thinkingBudget")
    include = bool(asked.get("includeThoughts"))
    if level is not None and budget is not None:
        raise invalid(BOTH)
    if level is not None:
        return Thinking(_level(level, row), None, include)
    if budget is not None:
        if budget < -1 or budget > MAX_BUDGET:
            raise invalid(BAD_BUDGET.format(budget=budget))
        return Thinking(None if budget == 0 else "medium", None if budget < 1 else budget, include)
    default = {"off": None, "dynamic": "medium"}.get(row.default_thinking, row.default_thinking)
    return Thinking(default, None, include)


def _level(value: str, row) -> str:
    if value.upper() not in LEVELS:
        raise invalid(
            f"Invalid value at 'generation_config.thinking_config.thinking_level' "
            f"(type.googleapis.com/google.ai.generativelanguage.v1beta.ThinkingConfig.ThinkingLevel), "
            f'"{value}"'
        )
    if not row.thinking_levels:
        raise invalid(NO_LEVELS)
    level = value.lower()
    if level not in row.thinking_levels:
        # Glass-box wording (Gemini's own for this case was not found): name what the model accepts.
        raise invalid(
            f"Thinking level {value.upper()} is not supported for models/{row.id}; it accepts "
            f"{', '.join(level.upper() for level in row.thinking_levels)}."
        )
    return level


def thought_tokens(thinking: Thinking, answer_tokens: int) -> int:
    """Thought tokens by the rule in the module docstring."""
    if thinking.level is None:
        return 0
    tokens = MULTIPLES[thinking.level] * answer_tokens
    return min(tokens, thinking.budget) if thinking.budget else tokens


def thought_part(thinking: Thinking) -> dict:
    """The one thought part shown with includeThoughts: what the glass box did instead of
    thinking."""
    return {
        "text": (
            f"(glass box, thinking level {thinking.level}) I answer by fixed rules from what the "
            "request holds; no reasoning was run, only its cost counted."
        ),
        "thought": True,
    }

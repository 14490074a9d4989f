"""A session's knobs in one validated dataclass, each default explained (the seeds' values).

`SessionConfig` holds what every session loop shares (budget, ratio, keep, caps, truncation); the
agent's `AgentConfig` and the tutor's `harness.probes.Strategy` extend it, so a knob that has
the same name means the same thing in both loops:

>>> AgentConfig(context_budget=5000, keep_recent_turns=3).compact_threshold
3500.0
>>> SessionConfig(session_token_cap=1000).over_cap(1000)
True
>>> SessionConfig(context_budget=-5, compact_ratio=7)
Traceback (most recent call last):
...
ValueError: SessionConfig: context_budget must be a token count of at least 1, got -5; compact_ratio must be in (0, 1], got 7.
"""  # noqa: E501

from dataclasses import dataclass, field, fields

from harness.compaction import COMPACT_RATIO, CONTEXT_BUDGET, KEEP_RECENT_TURNS
from harness.masking import MASK_AFTER_TURNS
from harness.models import model_row
from harness.plumbing.arguments import require_fields
from harness.scenarios import DEFAULT_TASK, TASKS
from harness.truncation import HEAD_RATIO, TOOL_OUTPUT_MAX_CHARS

SESSION_TOKEN_CAP = 400_000  # a cost guard, not a quality lever: stop a session that runs away
MAX_COUNT = 10**9  # any knob above this is a typo, and a loop bound must be finite
TRUNCATION_MODES = ("head_and_tail", "head_only")


def _default_model() -> str:
    from harness import MODEL

    return MODEL


@dataclass(frozen=True, kw_only=True)
class SessionConfig:
    context_budget: int = (
        CONTEXT_BUDGET  # prompt tokens the harness lets the context reach (24,000)
    )
    compact_ratio: float = COMPACT_RATIO  # compact when the last prompt passes ratio x budget (0.7)
    keep_recent_turns: int = KEEP_RECENT_TURNS  # turns kept word for word by a compaction (3)
    compaction: bool = True  # summarise old turns past the threshold (lesson 05)
    truncate: bool = True  # cap tool outputs (lesson 04): free, so on by default
    tool_output_max_chars: int = (
        TOOL_OUTPUT_MAX_CHARS  # cap on each tool output the model sees (4,000)
    )
    head_ratio: float = (
        HEAD_RATIO  # share of the cap kept from the start; the rest is the end (0.4)
    )
    truncation_mode: str = "head_and_tail"  # "head_only" reproduces the lost-verdict failure
    # Tokens billed so far, input + output of every call (summaries included): once they reach the
    # cap (>=), the session stops before its next call.
    session_token_cap: int = SESSION_TOKEN_CAP  # (400,000)

    def _broken(self) -> list[str]:
        """What is wrong, one phrase per field: the field, the allowed range, the value given."""
        checks = [
            ("context_budget", self.context_budget >= 1, "a token count of at least 1"),
            ("compact_ratio", 0 < self.compact_ratio <= 1, "in (0, 1]"),
            ("keep_recent_turns", self.keep_recent_turns >= 1, "at least 1"),
            ("tool_output_max_chars", self.tool_output_max_chars >= 1, "at least 1"),
            ("head_ratio", 0 <= self.head_ratio <= 1, "between 0 and 1"),
            (
                "truncation_mode",
                self.truncation_mode in TRUNCATION_MODES,
                f"one of {TRUNCATION_MODES}",
            ),
            ("session_token_cap", self.session_token_cap >= 1, "a token count of at least 1"),
        ]
        return [
            f"{name} must be {allowed}, got {getattr(self, name)!r}"
            for name, ok, allowed in checks
            if not ok
        ]

    def __post_init__(self):
        # Types first, each number finite: a wrong type is one clear error, not a crash comparing
        # it. Ranges are _broken's business, so that every knob out of range is named in one error.
        require_fields(self, **{spec.name: (-MAX_COUNT, MAX_COUNT) for spec in fields(self)})
        broken = self._broken()
        if broken:
            raise ValueError(f"{type(self).__name__}: {'; '.join(broken)}.")

    @property
    def compact_threshold(self) -> float:
        """The prompt size past which (>) the next call is preceded by a compaction."""
        return self.compact_ratio * self.context_budget

    @property
    def effective_head_ratio(self) -> float:
        """The head ratio truncation uses: all head in head-only mode."""
        return 1.0 if self.truncation_mode == "head_only" else self.head_ratio

    def over_cap(self, tokens_so_far: int) -> bool:
        """True once the tokens billed so far (input + output) reach `session_token_cap`."""
        return tokens_so_far >= self.session_token_cap


@dataclass(frozen=True, kw_only=True)
class AgentConfig(SessionConfig):
    """The agent loop's session: the shared knobs, and those only an agent on a coding task has."""

    max_turns: int = 30  # a full run takes 12 here; 30 leaves room for detours
    # harness.MODEL unless a lesson says otherwise
    model: str = field(default_factory=_default_model)
    task: str = DEFAULT_TASK  # the coding task (harness.scenarios.TASKS): "invoicing"
    harness_state: bool = True  # add the harness-held state block after a summary (lesson 06)
    masking: bool = False  # mask old tool outputs (lesson 04); off: it rewrites the cached prefix
    mask_keep_last: int = MASK_AFTER_TURNS  # turns whose outputs are never masked (3)
    # The summary call's max_output_tokens (lesson 06). None: no cap, so no lesson's figures move; a
    # cap cuts the summary's last headings (and a thinking model spends its thoughts from it first).
    summary_max_tokens: int | None = None

    def _broken(self) -> list[str]:
        broken = super()._broken()
        if self.max_turns < 1:
            broken.append(f"max_turns must be at least 1, got {self.max_turns!r}")
        if self.summary_max_tokens is not None and self.summary_max_tokens < 1:
            broken.append(
                "summary_max_tokens must be a token count of at least 1 or None, got"
                f" {self.summary_max_tokens!r}"
            )
        if self.mask_keep_last < 1:
            broken.append(f"mask_keep_last must be at least 1, got {self.mask_keep_last!r}")
        if self.task not in TASKS:
            broken.append(f"task must be one of {sorted(TASKS)}, got {self.task!r}")
        try:
            model_row(self.model)
        except ValueError as unknown:  # before any call, not in the report after the run
            broken.append(f"model: {unknown}")
        return broken

"""The agent's knobs in one dataclass, each default explained (the seeds' values).

>>> AgentConfig(context_budget=5000, keep_recent_turns=3).compact_threshold
3500.0
"""
from dataclasses import dataclass, field

from harness.arguments import require_instance, require_int, require_number, require_text
from harness.compaction import COMPACT_RATIO, CONTEXT_BUDGET, KEEP_RECENT_TURNS
from harness.masking import MASK_AFTER_TURNS
from harness.truncation import HEAD_RATIO, TOOL_OUTPUT_MAX_CHARS

SESSION_TOKEN_CAP = 400_000  # a cost guard, not a quality lever: stop a session that runs away
MAX_COUNT = 10**9  # any knob above this is a typo, and a loop bound must be finite
TRUNCATION_MODES = ("head_and_tail", "head_only")


def _default_model() -> str:
    from harness import MODEL

    return MODEL


@dataclass
class AgentConfig:
    context_budget: int = CONTEXT_BUDGET          # prompt tokens the harness lets the context reach (24,000)
    compact_ratio: float = COMPACT_RATIO          # compact when the last prompt passes ratio x budget (0.7)
    keep_recent_turns: int = KEEP_RECENT_TURNS    # turns kept word for word by a compaction (3)
    tool_output_max_chars: int = TOOL_OUTPUT_MAX_CHARS  # cap on each tool output the model sees (4,000)
    head_ratio: float = HEAD_RATIO                # share of the cap kept from the start; the rest is the end (0.4)
    session_token_cap: int = SESSION_TOKEN_CAP    # input + output tokens after which the session stops (400,000)
    max_turns: int = 30                           # a full run takes 12 here; 30 leaves room for detours
    model: str = field(default_factory=_default_model)  # harness.MODEL unless a lesson says otherwise
    truncate: bool = True                         # cap tool outputs (lesson 04): free, so on by default
    truncation_mode: str = "head_and_tail"        # "head_only" reproduces the lost-verdict failure
    compaction: bool = True                       # summarise old turns past the threshold (lesson 05)
    harness_state: bool = True                    # add the harness-held state block after a summary (lesson 06)
    masking: bool = False                         # mask old tool outputs (lesson 04); off: it rewrites the cached prefix
    mask_keep_last: int = MASK_AFTER_TURNS        # turns whose outputs are never masked (3)

    def __post_init__(self):
        for name in ("context_budget", "keep_recent_turns", "tool_output_max_chars", "session_token_cap",
                     "max_turns", "mask_keep_last"):
            require_int(name, getattr(self, name), 1, MAX_COUNT)
        require_number("compact_ratio", self.compact_ratio, 0, 1)
        require_number("head_ratio", self.head_ratio, 0, 1)
        for name in ("truncate", "compaction", "harness_state", "masking"):
            require_instance(name, getattr(self, name), bool, "True or False")
        require_text("model", self.model, empty=False)
        checks = [
            (self.context_budget >= 1, f"context_budget must be a positive token count, got {self.context_budget}"),
            (0 < self.compact_ratio <= 1, f"compact_ratio must be in (0, 1], got {self.compact_ratio}"),
            (self.keep_recent_turns >= 1, f"keep_recent_turns must be at least 1, got {self.keep_recent_turns}"),
            (self.tool_output_max_chars >= 1, f"tool_output_max_chars must be at least 1, got {self.tool_output_max_chars}"),
            (0 <= self.head_ratio <= 1, f"head_ratio must be between 0 and 1, got {self.head_ratio}"),
            (self.session_token_cap >= 1, f"session_token_cap must be positive, got {self.session_token_cap}"),
            (self.max_turns >= 1, f"max_turns must be at least 1, got {self.max_turns}"),
            (self.truncation_mode in TRUNCATION_MODES,
             f"truncation_mode must be one of {TRUNCATION_MODES}, got {self.truncation_mode!r}"),
            (self.mask_keep_last >= 1, f"mask_keep_last must be at least 1, got {self.mask_keep_last}"),
        ]
        for ok, message in checks:
            if not ok:
                raise ValueError(f"AgentConfig: {message}.")

    @property
    def compact_threshold(self) -> float:
        """The prompt size past which the next call is preceded by a compaction."""
        return self.compact_ratio * self.context_budget

    @property
    def effective_head_ratio(self) -> float:
        """The head ratio truncation uses: all head in head-only mode."""
        return 1.0 if self.truncation_mode == "head_only" else self.head_ratio

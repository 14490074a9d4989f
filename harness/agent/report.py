"""What a run did, turn by turn: tokens, tools, compactions, edits, the last test verdict, the cost.

>>> from google.genai import types
>>> usage = types.GenerateContentResponseUsageMetadata(prompt_token_count=4108, candidates_token_count=174)
>>> record = TurnRecord(9, usage, tool="edit_file", args={"path": "invoicing/discounts.py"},
...                     result="Edited invoicing/discounts.py", compacted=12, trigger="4108 > 3500")
>>> print(RunReport(turns=[record], status="finished").table())
turn  prompt  cached  output  tool                                  result
   9    4108       0     174  edit_file(invoicing/discounts.py)     Edited invoicing/discounts.py  [compaction: 4108 > 3500, 12 messages folded]
"""  # noqa: E501

from dataclasses import asdict, dataclass, field, fields

import pydantic
from google.genai import types

from harness.billing import bill, price_for, require_price
from harness.plumbing.arguments import optional, require_fields, require_instance, require_int
from harness.usage import output_tokens


def _usage_json(usage):
    return usage.model_dump(mode="json", exclude_none=True) if usage is not None else None


def _usage_of(name: str, data):
    """The usage record `_usage_json` wrote (or None); its token counts must be whole numbers >=
    0."""
    if data is None:
        return None
    require_instance(name, data, dict, "a usage record (a JSON object of token counts) or null")
    for key, value in data.items():
        if key.endswith(("token_count", "TokenCount")) and value is not None:
            require_int(f"{name}.{key}", value, 0)
    try:
        return types.GenerateContentResponseUsageMetadata.model_validate(data)
    except pydantic.ValidationError as error:
        raise ValueError(
            f"{name} is not a usage record: {' '.join(str(error).splitlines()[1:3])}"
        ) from None


@dataclass
class TurnRecord:
    """One model call of the agent and what the harness did around it."""

    turn: int
    # as the API returned it (raw, for bundles)
    usage: types.GenerateContentResponseUsageMetadata | None
    seconds: float = 0.0  # wall time of the model call and the tools
    tool: str = ""  # first function called; "" when the model answered in text
    args: dict = field(default_factory=dict)
    result: str = ""  # a short view of what the tool returned (or the model's text)
    edited: list[str] = field(default_factory=list)  # paths edited successfully this turn
    verdict: str | None = None  # the test verdict a run_command showed this turn, if any
    compacted: int = 0  # messages folded by a compaction right after this turn (0: none)
    trigger: str = ""  # why it fired, e.g. "4108 > 3500" (prompt tokens > ratio x budget)
    summary_usage: types.GenerateContentResponseUsageMetadata | None = (
        None  # that compaction's model call
    )
    summary_finish: str = (
        ""  # that call's finishReason: "MAX_TOKENS" when summary_max_tokens cut it
    )

    def _count(self, name: str) -> int:
        return int(getattr(self.usage, name, 0) or 0) if self.usage else 0

    @property
    def prompt_tokens(self) -> int:
        return self._count("prompt_token_count")

    @property
    def cached_tokens(self) -> int:
        return self._count("cached_content_token_count")

    @property
    def output_tokens(self) -> int:
        """Candidates plus thinking tokens: both bill as output."""
        return output_tokens(self.usage) if self.usage else 0

    def args_view(self) -> str:
        """The call in a few characters: `read_file(README.md)`, `run_command(pytest)`, or `-`
        for text."""
        if not self.tool:
            return "-"
        shown = (
            self.args.get("path")
            or self.args.get("command")
            or ", ".join(map(str, self.args.values()))
        )
        return f"{self.tool}({str(shown)[:40]})"

    def to_json(self) -> dict:
        data = asdict(self)
        data["usage"], data["summary_usage"] = (
            _usage_json(self.usage),
            _usage_json(self.summary_usage),
        )
        return data

    def __post_init__(self):
        # a record is written to a checkpoint and read back: it holds what it says
        require_fields(self)

    @classmethod
    def from_json(cls, data: dict) -> "TurnRecord":
        """The record `to_json` wrote. Each field is checked by type, since a checkpoint can be
        edited by hand, checksums and all: TypeError or ValueError naming the first wrong field
        (TurnRecord.<name>).
        """
        require_instance("record", data, dict, "a JSON object of the turn's fields")
        unknown = sorted(set(data) - {spec.name for spec in fields(cls)})
        if unknown:
            raise ValueError(
                f"record has unknown fields {unknown}; a turn record has"
                f" {[f.name for f in fields(cls)]}"
            )
        if "turn" not in data:
            raise ValueError("record has no turn number")
        return cls(
            **{
                **data,
                "usage": _usage_of("TurnRecord.usage", data.get("usage")),
                "summary_usage": _usage_of("TurnRecord.summary_usage", data.get("summary_usage")),
            }
        )


@dataclass
class RunReport:
    """The turns of a run and its outcome; `table()` for the per-turn view, repr for one line."""

    turns: list[TurnRecord] = field(default_factory=list)
    status: str = "running"
    price: object = None  # None: the price of harness.MODEL in the dated table (billing.PRICES)
    # the history as it stood at the end (after compactions)
    history: list[types.Content] = field(default_factory=list)
    store: dict = field(default_factory=dict)  # masked tool outputs, by reference (lesson 04)

    def __post_init__(self):
        # a wrong price is refused now, not when shown
        require_fields(self, price=optional(require_price))

    def usages(self) -> list:
        """Every billed call: agent turns and the summary calls of compactions."""
        return [u for t in self.turns for u in (t.usage, t.summary_usage) if u is not None]

    @property
    def input_tokens(self) -> int:
        return sum(int(u.prompt_token_count or 0) for u in self.usages())

    @property
    def cached_tokens(self) -> int:
        return sum(int(u.cached_content_token_count or 0) for u in self.usages())

    @property
    def output_tokens(self) -> int:
        return sum(output_tokens(u) for u in self.usages())

    @property
    def cost(self) -> float:
        return bill(self.usages(), self.price or price_for()) if self.usages() else 0.0

    @property
    def edited(self) -> list:
        """Every file edited successfully during the run, sorted."""
        return sorted({path for t in self.turns for path in t.edited})

    @property
    def last_verdict(self) -> str | None:
        return next((t.verdict for t in reversed(self.turns) if t.verdict), None)

    @property
    def compactions(self) -> list:
        """(turn, messages folded) for each compaction."""
        return [(t.turn, t.compacted) for t in self.turns if t.compacted]

    def outcome(self) -> str:
        """Whether the task is done, from the last test verdict: "finished" only says the agent
        stopped calling tools, and it may stop with tests still failing (a panel says which)."""
        if self.last_verdict is None:
            return "task not done: the tests never ran"
        failing = "failed" in self.last_verdict or "error" in self.last_verdict
        return "task not done: tests still fail" if failing else "task done: the tests pass"

    def status_line(self) -> str:
        return (
            f"{self.status} · {len(self.turns)} turns · {self.input_tokens:,} input tokens ·"
            f" {self.output_tokens:,} output · ${self.cost:.4f} · last tests:"
            f" {self.last_verdict or 'none'}"
        )

    def table(self) -> str:
        """One line per turn: prompt, cached and output tokens, the call, what came back,
        compactions."""
        lines = [f"{'turn':>4}  {'prompt':>6}  {'cached':>6}  {'output':>6}  {'tool':<36}  result"]
        for t in self.turns:
            why = f"{t.trigger}, " if t.trigger else ""
            cut = ", summary cut at its token budget" if t.summary_finish == "MAX_TOKENS" else ""
            event = (
                f"  [compaction: {why}{t.compacted} messages folded{cut}]" if t.compacted else ""
            )
            lines.append(
                f"{t.turn:>4}  {t.prompt_tokens:>6}  {t.cached_tokens:>6}  {t.output_tokens:>6}  "
                f"{t.args_view():<36}  {t.result[:48]}{event}"
            )
        return "\n".join(lines)

    def __repr__(self):
        return f"RunReport({self.status_line()})"

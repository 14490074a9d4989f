"""Lesson 09: triggers, not schedules: the next thing a harness does to a request, from what it
measures.

Before each model call the harness measures the request by category (`harness.budgets`) and asks
`next_action` what to do; it does that, measures again, and asks again with the actions already
taken this turn in `done`, until the answer is "none". The rules, in order (« Techniques
d'Optimisation de Contexte », its budget triggers and its decision table):

1. Total past `threshold` x window: if tool outputs are over half of the request, "mask" first,
   then "compact" the rest; otherwise "compact".
2. A category past its own allocation x window gets its own remedy: tool outputs "mask" (resolved
   observations), documents "drop_document" (the least relevant), history "compact".
3. Otherwise "none". An action already in `done` is never returned again: the next rule applies.

>>> usage = {"system": 100, "tools": 500, "documents": 900, "history": 1200, "tool_outputs": 3600}
>>> next_action(usage, {"tool_outputs": 0.35, "history": 0.30, "documents": 0.20}, window=8000)
'mask'
>>> next_action(usage, {"tool_outputs": 0.35, "history": 0.30, "documents": 0.20}, window=8000, done=("mask",))
'compact'
>>> next_action(usage, {"tool_outputs": 0.35, "history": 0.30, "documents": 0.20}, window=20000)
'none'
"""

from collections.abc import Callable

from harness.budgets import CATEGORIES, check_allocations, part_tokens, split_by_category
from harness.plumbing.arguments import (
    checked,
    require_callable,
    require_instance,
    require_int,
    require_number,
    shown,
)

ACTIONS = ("mask", "compact", "drop_document", "none")
# « Techniques d'Optimisation de Contexte »: compact once total use passes 70% of the window
THRESHOLD = 0.7
REMEDIES = (("tool_outputs", "mask"), ("documents", "drop_document"), ("history", "compact"))


def _usage(name: str, usage) -> None:
    """Tokens by category, as split_by_category measures them: every category, each a count >= 0."""
    require_instance(name, usage, dict, "a dict of tokens by category (split_by_category's result)")
    missing = [category for category in CATEGORIES if category not in usage]
    if missing:
        raise ValueError(
            f"{name} lacks {missing}; pass split_by_category's result, which has every category."
        )
    for category in CATEGORIES:
        require_int(f"{name}[{category!r}]", usage[category], 0)


def _allocations(name: str, allocations) -> None:
    check_allocations(allocations)


def _done(name: str, done) -> None:
    require_instance(name, done, (tuple, list), "a tuple of the actions already taken this turn")
    for index, action in enumerate(done):
        if action not in ACTIONS:
            raise ValueError(f"{name}[{index}] must be one of {ACTIONS}, got {shown(action)}.")


# What both triggers check at their entry (window and threshold: as the policy's).
_TRIGGER_RULES = dict(
    usage=_usage, allocations=_allocations, window=(1, None), threshold=(0, 1), done=_done
)


@checked(**_TRIGGER_RULES)
def next_action(
    usage: dict,
    allocations: dict,
    window: int,
    threshold: float = THRESHOLD,
    done: tuple[str, ...] = (),
) -> str:
    """The next action on a request measured as `usage`: one of ACTIONS (the module docstring's
    rules)."""
    total = sum(usage[name] for name in CATEGORIES)
    wanted = []
    if total > threshold * window:
        wanted += ["mask", "compact"] if usage["tool_outputs"] > total / 2 else ["compact"]
    wanted += [
        remedy
        for category, remedy in REMEDIES
        if category in allocations and usage[category] > allocations[category] * window
    ]
    return next((action for action in wanted if action not in done), "none")


@checked(**_TRIGGER_RULES)
def single_trigger(
    usage: dict,
    allocations: dict,
    window: int,
    threshold: float = THRESHOLD,
    done: tuple[str, ...] = (),
) -> str:
    """The baseline: one trigger, compact when the total passes `threshold` x window (allocations
    unused)."""
    over = sum(usage[name] for name in CATEGORIES) > threshold * window
    return "compact" if over and "compact" not in done else "none"


class TriggerPolicy:
    """What `run_agent(policy=...)` calls before each model call; it keeps what it measured and
    decided.

    `split(system_instruction, tools, contents)` measures (9.1), `decide(usage, allocations, window,
    threshold, done)` decides (9.2). `turns` holds one entry per model call: `steps`, the
    (usage, contents) it measured, first as it stood then after each action, and `actions`, what was
    done; `sent(turn)` is the usage of the request that call sent.
    """

    def __init__(
        self,
        allocations: dict,
        window: int,
        threshold: float = THRESHOLD,
        split: Callable = split_by_category,
        decide: Callable = next_action,
    ):
        self.allocations, self.window = (
            check_allocations(allocations),
            require_int("window", window, 1),
        )
        self.threshold = require_number("threshold", threshold, 0, 1)
        self.split, self.decide = (
            require_callable("split", split),
            require_callable("decide", decide),
        )
        self.turns: list[dict] = []

    def __call__(self, system_instruction: str, tools: list, contents: list, done: tuple) -> str:
        usage = self.split(system_instruction, tools, contents)
        if not done:
            self.turns.append({"steps": [], "actions": []})
        turn = self.turns[-1]
        turn["steps"].append((usage, contents))
        action = self.decide(usage, self.allocations, self.window, self.threshold, tuple(done))
        if action not in ACTIONS:
            raise ValueError(f"the policy answered {action!r}; it must answer one of {ACTIONS}.")
        if action != "none" and action not in done:
            turn["actions"].append(action)
        return action

    def sent(self, index: int) -> dict:
        """The usage by category of the request model call `index` (from 0) sent."""
        return self.turns[index]["steps"][-1][0]

    def __repr__(self):
        return (
            f"TriggerPolicy({len(self.turns)} calls measured, window {self.window:,}, threshold"
            f" {self.threshold:g}, actions {[a for t in self.turns for a in t['actions']]})"
        )


def _action(name: str, action) -> None:
    if action not in ("mask", "compact"):
        raise ValueError(f"{name} must be 'mask' or 'compact', got {shown(action)}.")


@checked(action=_action)
def reductions(policy: TriggerPolicy, action: str) -> list[float]:
    """For each time `action` was done: the share of tokens it removed from what it rewrote.

    "mask": of the tool outputs it replaced (each changed part, before and after); "compact": of the
    history and tool outputs (what a compaction rewrites; system, tools and documents stay).
    """
    found = []
    for turn in policy.turns:
        for done, (before, after) in zip(turn["actions"], zip(turn["steps"], turn["steps"][1:])):
            if done != action:
                continue
            if action == "mask":
                changed = [
                    (old, new)
                    for a, b in zip(before[1], after[1])
                    for old, new in zip(a.parts, b.parts)
                    if old != new
                ]
                was = sum(part_tokens.unchecked(old) for old, _ in changed)
                now = sum(part_tokens.unchecked(new) for _, new in changed)
            else:
                was = before[0]["history"] + before[0]["tool_outputs"]
                now = after[0]["history"] + after[0]["tool_outputs"]
            if was:
                found.append(1 - now / was)
    return found

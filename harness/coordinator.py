"""One agent against a coordinator and its sub-agents, on lesson 10's task: the runs and their
tokens.

`run_single(packages)` runs one agent (with compaction) on the sub-tasks together. `plan(...)`
splits them with a `split_task` (10.1); `coordinate(partitions)` runs one sub-agent per partition
in a clean context of its own sub-task, merges their structured results with a `merge_results`
(10.2), applies the merge to a fresh copy of the whole task and runs its tests, and makes one
call of its own to report: the coordinator's overhead.

>>> done = coordinate(plan(["stock", "grades"], share=0.2))   # doctest: +SKIP
>>> done.partitions, sorted(done.merged), done.verdict         # doctest: +SKIP
([['stock'], ['grades']], ['grades/marks.py', 'stock/levels.py'], '6 passed')

Runs are deterministic on the glass box, so each (sub-task list, config) is run once per process
and remembered: the panel redraws from the same runs.
"""

import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from google.genai import types

from harness.agent import AgentConfig, RunReport, run_agent
from harness.agent.loop import SYSTEM_PROMPT
from harness.agent.reused_runs import ReusingWorkspace
from harness.formats import verdict_line
from harness.partitioning import PLAN_SHARE, MergeRefused, SubResult, merge_results, split_task
from harness.plumbing import sessions_in_process
from harness.plumbing.arguments import checked, require_fields, require_instance, require_list
from harness.scenarios import copy_task
from harness.scenarios.repairs import (
    FOLDER,
    PACKAGES,
    prompt_for,
    readme_section,
    require_package,
    require_packages,
    subtask,
)
from harness.tokens import approx_tokens
from harness.tools import TOOL
from harness.truncation import TOOL_OUTPUT_MAX_CHARS, truncate_output
from harness.usage import Usage, output_tokens, require_usage, token_count

# The lesson's window, scaled down as lesson 12's is: 8,000 tokens here stand for a real model's
# 1,048,576, so that four small packages already crowd it. One agent compacts at 0.7 x WINDOW.
WINDOW = 8_000
# 4 turns a package + 4, and detours
CONFIG = AgentConfig(task="repairs", context_budget=WINDOW, max_turns=40)
RUNS_PER_SUBTASK = 2  # an estimate's test runs: one to see the failure, one to confirm the fix
COORDINATOR_PROMPT = (
    "You coordinate sub-agents that each fixed one part of a task. Read their reports and "
    "tell the user, in two sentences, what was changed and whether the tests pass."
)

_RUNS: dict = {}  # every run, test run and report call, by what it depends on: each made once per process


@dataclass
class Coordination:
    """What the coordinator did: the split, each sub-agent's result, the merge and the tokens."""

    partitions: list
    results: list = field(default_factory=list)  # one SubResult per partition
    merged: dict | None = None  # path -> text; None when the merge was refused
    refused: str = ""  # why the merge was refused ("" when it merged)
    verdict: str = ""  # the whole task's tests after the merge
    overhead_tokens: int = 0  # the coordinator's own call

    def __post_init__(self):
        require_fields(self, partitions=_partitions)

    @property
    def subagent_tokens(self) -> int:
        return sum(r.tokens for r in self.results)

    @property
    def total_tokens(self) -> int:
        return self.subagent_tokens + self.overhead_tokens

    @property
    def passed(self) -> bool:
        return passing(self.verdict)

    def __repr__(self):
        return (
            f"Coordination({self.partitions}, {len(self.partitions)} sub-agents,"
            f" {self.total_tokens:,} tokens, overhead {self.overhead_tokens:,},"
            f" {self.refused or self.verdict!r})"
        )


@checked
def tokens_of(report: RunReport) -> int:
    """Input + output tokens of every call of a run, the summaries of its compactions included."""
    return report.input_tokens + report.output_tokens


@checked(usage=require_usage)
def input_and_output(usage: Usage) -> int:
    """Input + output tokens of one call."""
    return token_count(usage, "prompt_token_count") + output_tokens(usage)


@checked
def passing(verdict: str) -> bool:
    """True for a verdict where tests passed and none failed ("" when no tests ran: False)."""
    return bool(verdict) and "passed" in verdict and "failed" not in verdict


def _partitions(name: str, partitions) -> None:
    require_list(name, partitions, "partitions (lists of names)")
    if not partitions:
        raise ValueError(
            f"{name} must hold at least one partition, got {partitions!r}; e.g. [['stock'],"
            " ['grades']]."
        )
    for index, partition in enumerate(partitions):
        require_packages(f"{name}[{index}]", partition)


@checked(package=require_package)
def estimate_tokens(package: str) -> int:
    """A sub-task's estimated context before any run: its files, and its test output (capped as the
    agent sees it) once per expected run."""
    files = [readme_section(package), (FOLDER / "tests" / f"test_{package}.py").read_text()]
    files += [path.read_text() for path in sorted((FOLDER / package).glob("*.py"))]
    if ("estimate", package) not in _RUNS:
        with tempfile.TemporaryDirectory(prefix="workbook-estimate-") as folder:
            output = ReusingWorkspace(copy_task(folder, subtask([package]))).run_command("pytest")
        _RUNS["estimate", package] = approx_tokens(truncate_output(output, TOOL_OUTPUT_MAX_CHARS))
    return (
        sum(approx_tokens(text) for text in files) + RUNS_PER_SUBTASK * _RUNS["estimate", package]
    )


@checked(packages=require_packages)
def estimate_context(packages) -> int:
    """The estimated context of one agent doing `packages`: its fixed part and every sub-task's
    estimate."""
    fixed = approx_tokens(SYSTEM_PROMPT) + approx_tokens(TOOL.model_dump_json(exclude_none=True))
    return fixed + sum(estimate_tokens.unchecked(p) for p in packages)


def _run(packages, config: AgentConfig) -> tuple[RunReport, dict]:
    """One agent on `packages` alone, and the text of each file it edited (each run once per
    process: one agent on a single sub-task is the same run as that sub-task's sub-agent)."""
    key = (tuple(packages), config)
    if key not in _RUNS:
        with tempfile.TemporaryDirectory(prefix="workbook-agent-") as folder:
            report = run_agent(replace(config, task=subtask(packages)), workdir=folder)
            _RUNS[key] = report, {path: (Path(folder) / path).read_text() for path in report.edited}
    return _RUNS[key]


@checked(packages=require_packages)
def run_single(packages, config: AgentConfig = CONFIG) -> RunReport:
    """One agent with compaction on every sub-task of `packages` together."""
    return _run(packages, config)[0]


@checked(packages=require_packages)
def run_subagent(packages, config: AgentConfig = CONFIG) -> SubResult:
    """A sub-agent on `packages` alone, in a clean context, and its structured result."""
    report, edits = _run(packages, config)
    verdict = report.last_verdict or ""
    return SubResult(
        tuple(packages),
        passing.unchecked(verdict),
        dict(edits),
        tokens_of.unchecked(report),
        verdict,
    )


def _report_call(results) -> int:
    """The coordinator's own model call: read the structured results, report. Its tokens."""
    from harness import MODEL, connect

    key = ("report", tuple(map(repr, results)))
    if key in _RUNS:
        return _RUNS[key]

    lines = [
        f"- {', '.join(r.packages)}: {'finished' if r.finished else 'NOT finished'}; tests:"
        f" {r.verdict or 'none'}; edited: {', '.join(sorted(r.edits)) or 'nothing'}"
        for r in results
    ]
    task = prompt_for([p for r in results for p in r.packages])
    prompt = f"The task: {task}\n\nSub-agent reports:\n" + "\n".join(lines)
    client = connect()  # held while the call runs: a client closes its connection when collected
    # client.models.generate_content, in-process on the glass box (see the agent's loop)
    response = sessions_in_process.generate_content(
        client,
        model=MODEL,
        contents=prompt,
        config=types.GenerateContentConfig(system_instruction=COORDINATOR_PROMPT),
    )
    _RUNS[key] = input_and_output(response.usage_metadata)
    return _RUNS[key]


def _tests_after(packages: list, merged: dict) -> str:
    """The verdict of the task's tests on a fresh copy of `packages` with the `merged` edits
    written in."""
    key = ("merged", tuple(packages), tuple(sorted(merged.items())))
    if key not in _RUNS:
        with tempfile.TemporaryDirectory(prefix="workbook-merged-") as folder:
            root = copy_task(folder, subtask(packages))
            for path, text in merged.items():
                (root / path).write_text(text)
            _RUNS[key] = (verdict_line(ReusingWorkspace(root).run_command("pytest")) or "").strip(
                "= "
            )
    return _RUNS[key]


@checked(packages=require_packages, window=(1, None), share=(0, 1))
def plan(
    packages, window: int = WINDOW, share: float = PLAN_SHARE, split: Callable = split_task
) -> list[list[str]]:
    """The partitions `split(subtasks, window, share)` makes of `packages` with their estimates."""
    return [
        list(p) for p in split([(p, estimate_tokens.unchecked(p)) for p in packages], window, share)
    ]


@checked(partitions=_partitions)
def coordinate(
    partitions, *, merge: Callable = merge_results, config: AgentConfig = CONFIG
) -> Coordination:
    """A sub-agent per partition, `merge(results, partitions)`, the merged edits applied to a fresh
    copy of the task and its tests run, and the coordinator's report call. A MergeRefused leaves
    the task unchanged and says why in `refused`."""
    partitions = [list(p) for p in partitions]
    done = Coordination(partitions, [run_subagent.unchecked(p, config) for p in partitions])
    done.overhead_tokens = _report_call(done.results)
    try:
        done.merged = merge(done.results, partitions)
    except MergeRefused as refusal:
        done.refused = str(refusal)
        return done
    done.verdict = _tests_after([p for partition in partitions for p in partition], done.merged)
    return done


@checked(max_subtasks=(1, len(PACKAGES)))
def sweep(
    max_subtasks: int = len(PACKAGES),
    *,
    merge: Callable = merge_results,
    config: AgentConfig = CONFIG,
) -> list[dict]:
    """For n = 1..max_subtasks: one agent on the first n sub-tasks against a coordinator giving each
    of them a sub-agent of its own, in tokens (and whether each strategy left the tests passing)."""
    rows = []
    for n in range(1, max_subtasks + 1):
        single = run_single.unchecked(PACKAGES[:n], config)
        done = coordinate.unchecked([[p] for p in PACKAGES[:n]], merge=merge, config=config)
        rows.append(
            {
                "subtasks": n,
                "single": tokens_of(single),
                "partitioned": done.total_tokens,
                "overhead": done.overhead_tokens,
                "single_passed": passing.unchecked(single.last_verdict or ""),
                "partitioned_passed": done.passed,
                "refused": bool(done.refused),
                "estimate": estimate_context.unchecked(PACKAGES[:n]),
            }
        )
    return rows


def _rows(name: str, rows) -> None:
    require_list(name, rows, "rows of sweep()")
    for index, row in enumerate(rows):
        require_instance(f"{name}[{index}]", row, dict, "a row of sweep() (a dict)")
        missing = [
            key for key in ("subtasks", "single", "partitioned", "refused") if key not in row
        ]
        if missing:
            raise ValueError(f"{name}[{index}] lacks {missing}: pass the rows sweep() returns.")


@checked(rows=_rows)
def crossing(rows: list[dict]) -> int | None:
    """The smallest number of sub-tasks at which partitioning costs fewer tokens than one agent,
    or None."""
    return next(
        (
            row["subtasks"]
            for row in rows
            if row["partitioned"] < row["single"] and not row["refused"]
        ),
        None,
    )

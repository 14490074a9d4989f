"""One agent against a coordinator and its sub-agents, on lesson 10's task: the runs and their tokens.

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
from dataclasses import dataclass, field, replace
from pathlib import Path

from google.genai import types

from harness.agent import AgentConfig, RunReport, run_agent
from harness.agent.loop import SYSTEM_PROMPT
from harness.agent.reused_runs import ReusingWorkspace
from harness.plumbing.arguments import require_callable, require_instance, require_int, require_list
from harness.formats import verdict_line
from harness.partitioning import PLAN_SHARE, MergeRefused, SubResult, merge_results, split_task
from harness.scenarios import copy_task
from harness.scenarios.repairs import FOLDER, PACKAGES, prompt_for, readme_section, subtask
from harness.tokens import approx_tokens
from harness.tools import TOOL
from harness.truncation import TOOL_OUTPUT_MAX_CHARS, truncate_output
from harness.usage import output_tokens

# The lesson's window, scaled down as lesson 12's is: 8,000 tokens here stand for a real model's
# 1,048,576, so that four small packages already crowd it. One agent compacts at 0.7 x WINDOW.
WINDOW = 8_000
CONFIG = AgentConfig(task="repairs", context_budget=WINDOW, max_turns=40)  # 4 turns a package + 4, and detours
RUNS_PER_SUBTASK = 2  # an estimate's test runs: one to see the failure, one to confirm the fix
COORDINATOR_PROMPT = ("You coordinate sub-agents that each fixed one part of a task. Read their reports and "
                      "tell the user, in two sentences, what was changed and whether the tests pass.")

_RUNS: dict = {}  # every run, test run and report call, by what it depends on: each made once per process


@dataclass
class Coordination:
    """What the coordinator did: the split, each sub-agent's result, the merge and the tokens."""
    partitions: list
    results: list = field(default_factory=list)      # one SubResult per partition
    merged: dict | None = None                       # path -> text; None when the merge was refused
    refused: str = ""                                # why the merge was refused ("" when it merged)
    verdict: str = ""                                # the whole task's tests after the merge
    overhead_tokens: int = 0                         # the coordinator's own call

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
        return (f"Coordination({self.partitions}, {len(self.partitions)} sub-agents, {self.total_tokens:,} tokens, "
                f"overhead {self.overhead_tokens:,}, {self.refused or self.verdict!r})")


def tokens_of(report: RunReport) -> int:
    """Input + output tokens of every call of a run, the summaries of its compactions included."""
    return report.input_tokens + report.output_tokens


def input_and_output(usage) -> int:
    return int(usage.prompt_token_count or 0) + output_tokens(usage)


def passing(verdict: str | None) -> bool:
    """True for a verdict where tests passed and none failed."""
    return bool(verdict) and "passed" in verdict and "failed" not in verdict


def _packages(packages) -> list:
    packages = list(packages)
    subtask(packages)  # refuses unknown or repeated names, with the list of known ones
    return packages


def estimate_tokens(package: str) -> int:
    """A sub-task's estimated context before any run: its files, and its test output (capped as the
    agent sees it) once per expected run."""
    files = [readme_section(package), (FOLDER / "tests" / f"test_{package}.py").read_text()]
    files += [path.read_text() for path in sorted((FOLDER / package).glob("*.py"))]
    if ("estimate", package) not in _RUNS:
        with tempfile.TemporaryDirectory(prefix="workbook-estimate-") as folder:
            output = ReusingWorkspace(copy_task(folder, subtask([package]))).run_command("pytest")
        _RUNS["estimate", package] = approx_tokens(truncate_output(output, TOOL_OUTPUT_MAX_CHARS))
    return sum(approx_tokens(text) for text in files) + RUNS_PER_SUBTASK * _RUNS["estimate", package]


def estimate_context(packages) -> int:
    """The estimated context of one agent doing `packages`: its fixed part and every sub-task's estimate."""
    fixed = approx_tokens(SYSTEM_PROMPT) + approx_tokens(TOOL.model_dump_json(exclude_none=True))
    return fixed + sum(estimate_tokens(p) for p in _packages(packages))


def _run(packages, config: AgentConfig) -> tuple[RunReport, dict]:
    """One agent on `packages` alone, and the text of each file it edited (each run once per process:
    one agent on a single sub-task is the same run as that sub-task's sub-agent)."""
    packages = _packages(packages)
    require_instance("config", config, AgentConfig, "an AgentConfig")
    key = (tuple(packages), config)
    if key not in _RUNS:
        with tempfile.TemporaryDirectory(prefix="workbook-agent-") as folder:
            report = run_agent(replace(config, task=subtask(packages)), workdir=folder)
            _RUNS[key] = report, {path: (Path(folder) / path).read_text() for path in report.edited}
    return _RUNS[key]


def run_single(packages, config: AgentConfig = CONFIG) -> RunReport:
    """One agent with compaction on every sub-task of `packages` together."""
    return _run(packages, config)[0]


def run_subagent(packages, config: AgentConfig = CONFIG) -> SubResult:
    """A sub-agent on `packages` alone, in a clean context, and its structured result."""
    report, edits = _run(packages, config)
    verdict = report.last_verdict or ""
    return SubResult(tuple(_packages(packages)), passing(verdict), dict(edits), tokens_of(report), verdict)


def _report_call(results) -> int:
    """The coordinator's own model call: read the structured results, report. Its tokens."""
    from harness import MODEL, connect

    key = ("report", tuple(map(repr, results)))
    if key in _RUNS:
        return _RUNS[key]

    lines = [f"- {', '.join(r.packages)}: {'finished' if r.finished else 'NOT finished'}; tests: {r.verdict or 'none'}; "
             f"edited: {', '.join(sorted(r.edits)) or 'nothing'}" for r in results]
    task = prompt_for([p for r in results for p in r.packages])
    prompt = f"The task: {task}\n\nSub-agent reports:\n" + "\n".join(lines)
    client = connect()  # held while the call runs: a client closes its connection when collected
    response = client.models.generate_content(
        model=MODEL, contents=prompt, config=types.GenerateContentConfig(system_instruction=COORDINATOR_PROMPT))
    _RUNS[key] = input_and_output(response.usage_metadata)
    return _RUNS[key]


def _tests_after(packages: list, merged: dict) -> str:
    """The verdict of the task's tests on a fresh copy of `packages` with the `merged` edits written in."""
    key = ("merged", tuple(packages), tuple(sorted(merged.items())))
    if key not in _RUNS:
        with tempfile.TemporaryDirectory(prefix="workbook-merged-") as folder:
            root = copy_task(folder, subtask(packages))
            for path, text in merged.items():
                (root / path).write_text(text)
            _RUNS[key] = (verdict_line(ReusingWorkspace(root).run_command("pytest")) or "").strip("= ")
    return _RUNS[key]


def plan(packages, window: int = WINDOW, share: float = PLAN_SHARE, split=split_task) -> list[list[str]]:
    """The partitions `split(subtasks, window, share)` makes of `packages` with their estimates."""
    packages = _packages(packages)
    require_int("window", window, 1)
    require_callable("split", split)
    return [list(p) for p in split([(p, estimate_tokens(p)) for p in packages], window, share)]


def coordinate(partitions, *, merge=merge_results, config: AgentConfig = CONFIG) -> Coordination:
    """A sub-agent per partition, `merge(results, partitions)`, the merged edits applied to a fresh
    copy of the task and its tests run, and the coordinator's report call. A MergeRefused leaves
    the task unchanged and says why in `refused`."""
    partitions = [_packages(p) for p in require_list("partitions", partitions, "partitions (lists of names)")]
    require_callable("merge", merge)
    done = Coordination(partitions, [run_subagent(p, config) for p in partitions])
    done.overhead_tokens = _report_call(done.results)
    try:
        done.merged = merge(done.results, partitions)
    except MergeRefused as refusal:
        done.refused = str(refusal)
        return done
    done.verdict = _tests_after([p for partition in partitions for p in partition], done.merged)
    return done


def sweep(max_subtasks: int = len(PACKAGES), *, merge=merge_results, config: AgentConfig = CONFIG) -> list[dict]:
    """For n = 1..max_subtasks: one agent on the first n sub-tasks against a coordinator giving each
    of them a sub-agent of its own, in tokens (and whether each strategy left the tests passing)."""
    require_int("max_subtasks", max_subtasks, 1, len(PACKAGES))
    rows = []
    for n in range(1, max_subtasks + 1):
        single = run_single(PACKAGES[:n], config)
        done = coordinate([[p] for p in PACKAGES[:n]], merge=merge, config=config)
        rows.append({"subtasks": n, "single": tokens_of(single), "partitioned": done.total_tokens,
                     "overhead": done.overhead_tokens, "single_passed": passing(single.last_verdict),
                     "partitioned_passed": done.passed, "refused": bool(done.refused),
                     "estimate": estimate_context(PACKAGES[:n])})
    return rows


def crossing(rows) -> int | None:
    """The smallest number of sub-tasks at which partitioning costs fewer tokens than one agent, or None."""
    return next((row["subtasks"] for row in rows if row["partitioned"] < row["single"] and not row["refused"]), None)

"""`python -m harness demo [--task NAME] [--budget N] [--keep K] [--max-chars M]`: one offline run.

Prints the per-turn table and a status line, e.g. with a small budget to watch compaction fire,
or on the second task:

    python -m harness demo --budget 5000 --keep 3
    python -m harness demo --task shipping

A bad value (an unknown WORKBOOK_MODEL or task) is one message before any call, never a crash after.
"""

import argparse
import os
import sys

from harness.agent.config import AgentConfig
from harness.scenarios import DEFAULT_TASK, TASKS


def _positive(text: str) -> int:
    try:
        value = int(text.replace(",", "").replace("_", ""))
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, got {text!r}")
    return value


def parser() -> argparse.ArgumentParser:
    defaults = AgentConfig.__dataclass_fields__
    p = argparse.ArgumentParser(
        prog="python -m harness demo",
        description="Run the agent on a coding task, offline, and print its turns.",
    )
    p.add_argument(
        "--task",
        choices=sorted(TASKS),
        default=DEFAULT_TASK,
        help="the coding task (default %(default)s)",
    )
    p.add_argument(
        "--budget",
        type=_positive,
        default=defaults["context_budget"].default,
        help="context budget in tokens; compaction fires past 0.7 x budget (default %(default)s)",
    )
    p.add_argument(
        "--keep",
        type=_positive,
        default=defaults["keep_recent_turns"].default,
        help="turns a compaction keeps word for word (default %(default)s)",
    )
    p.add_argument(
        "--max-chars",
        type=_positive,
        default=defaults["tool_output_max_chars"].default,
        help="cap on each tool output the model sees (default %(default)s)",
    )
    return p


def main(argv: list[str]) -> int:
    try:
        args = parser().parse_args(argv)
    except SystemExit as stop:  # argparse has printed the usage and what was wrong
        return int(stop.code or 0)
    os.environ["WORKBOOK_OFFLINE"] = "1"  # the demo never spends money, even with a key set
    from harness import mode_line
    from harness.agent.loop import run_agent

    try:
        config = AgentConfig(
            task=args.task,
            context_budget=args.budget,
            keep_recent_turns=args.keep,
            tool_output_max_chars=args.max_chars,
        )
    except ValueError as bad:
        print(f"python -m harness demo: {bad}", file=sys.stderr)
        return 2
    report = run_agent(config)
    print(mode_line())
    print(report.table())
    print(report.status_line())
    return 0

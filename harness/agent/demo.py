"""`python -m harness demo [--budget N] [--keep K] [--max-chars M]`: one offline run of the agent.

Prints the per-turn table and a status line, e.g. with a small budget to watch compaction fire:

    python -m harness demo --budget 5000 --keep 3
"""
import argparse
import os

from harness.agent.config import AgentConfig


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
    p = argparse.ArgumentParser(prog="python -m harness demo",
                                description="Run the agent on the invoicing task, offline, and print its turns.")
    p.add_argument("--budget", type=_positive, default=defaults["context_budget"].default,
                   help="context budget in tokens; compaction fires past 0.7 x budget (default %(default)s)")
    p.add_argument("--keep", type=_positive, default=defaults["keep_recent_turns"].default,
                   help="turns a compaction keeps word for word (default %(default)s)")
    p.add_argument("--max-chars", type=_positive, default=defaults["tool_output_max_chars"].default,
                   help="cap on each tool output the model sees (default %(default)s)")
    return p


def main(argv: list[str]) -> int:
    try:
        args = parser().parse_args(argv)
    except SystemExit as stop:  # argparse has printed the usage and what was wrong
        return int(stop.code or 0)
    os.environ["WORKBOOK_OFFLINE"] = "1"  # the demo never spends money, even with a key set
    from harness import mode_line
    from harness.agent.loop import run_agent

    report = run_agent(AgentConfig(context_budget=args.budget, keep_recent_turns=args.keep,
                                   tool_output_max_chars=args.max_chars))
    print(mode_line())
    print(report.table())
    print(report.status_line())
    return 0

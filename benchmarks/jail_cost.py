"""What the jail costs a `run_command`: median wall time of each command, jailed and with the jail off.

    .venv/bin/python benchmarks/jail_cost.py

"Jail off" is how commands ran before harness.plumbing.jail (network namespace only), through the
documented opt-in switch. Prints one line per command; nothing is asserted.
"""
import os
import statistics
import tempfile
import time

from harness import tools
from harness.scenarios import copy_task
from harness.tools import Workspace

COMMANDS = ("cat README.md", "grep -rn BULK invoicing", "pytest -q")
RUNS = 15


def timed(ws: Workspace, command: str) -> float:
    ws.run_command(command)  # the warm helper up, caches warm
    times = []
    for _ in range(RUNS):
        ws.new_turn()
        started = time.perf_counter()
        ws.run_command(command)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> None:
    ws = Workspace(copy_task(tempfile.mkdtemp()))
    print(f"jail mode here: {tools.jail_mode()}")
    jailed = {command: timed(ws, command) for command in COMMANDS}
    tools._discard_warm_helper()
    tools.jail_mode = lambda: None
    os.environ[tools.UNJAILED_SWITCH] = "1"
    unjailed = {command: timed(ws, command) for command in COMMANDS}
    tools._discard_warm_helper()
    for command in COMMANDS:
        print(f"{command:28} jailed {jailed[command] * 1000:6.0f} ms   jail off {unjailed[command] * 1000:6.0f} ms")


if __name__ == "__main__":
    main()

"""What the jail costs a `run_command`: median wall time of each command, jailed and with the jail
off; with --parts, what each of issue 29's limits adds to `pytest -q`, each left out in turn.

    .venv/bin/python benchmarks/jail_cost.py            # jailed vs jail off
    .venv/bin/python benchmarks/jail_cost.py --parts    # as root: every part on, then each one off
    .venv/bin/python benchmarks/jail_cost.py --against /path/to/other/checkout   # before vs after

"Jail off" is how commands ran before harness.plumbing.jail (network namespace only), through the
documented opt-in switch. --parts interleaves the variants run by run (the machine's load moves
between them, not within one) and needs root: a uid of its own and the cgroups are root's.
--against runs each command jailed by this checkout and by another (a commit before a change, say:
`git archive COMMIT | tar -x -C DIR`), in two worker processes, one run of each in turn.
Prints one line per command or variant; nothing is asserted.
"""

import os
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager

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


def jailed_and_off(ws: Workspace) -> None:
    print(f"jail mode here: {tools.jail_mode()}")
    jailed = {command: timed(ws, command) for command in COMMANDS}
    tools._discard_warm_helper()
    tools.jail_mode = lambda: None
    os.environ[tools.UNJAILED_SWITCH] = "1"
    unjailed = {command: timed(ws, command) for command in COMMANDS}
    tools._discard_warm_helper()
    for command in COMMANDS:
        print(
            f"{command:28} jailed {jailed[command] * 1000:6.0f} ms   jail off"
            f" {unjailed[command] * 1000:6.0f} ms"
        )


@contextmanager
def without(part: str):
    """The jail without one of its limits: "cgroups", "overlay" (written through) or "own uid"."""
    jail, cgroups_for = tools._jail, tools.jail_program.cgroups_for
    if part == "cgroups":
        tools.jail_program.cgroups_for = lambda *args, **kwargs: []
    elif part == "overlay":
        tools._jail = lambda *args: {**jail(*args), "write_bytes": None}
    elif part == "own uid":
        tools._jail = lambda *args: {**jail(*args), "uid": None}
    try:
        yield
    finally:
        tools._jail, tools.jail_program.cgroups_for = jail, cgroups_for


def parts(ws: Workspace) -> None:
    variants = ("", "cgroups", "overlay", "own uid")
    times = {variant: [] for variant in variants}
    ws.run_command("pytest -q")  # the warm helper up
    for _ in range(RUNS + 5):
        for variant in variants:
            with without(variant):
                ws.new_turn()
                started = time.perf_counter()
                ws.run_command("pytest -q")
                times[variant].append(time.perf_counter() - started)
    print(f"pytest -q, {RUNS + 5} runs each, interleaved; load average {os.getloadavg()[0]:.1f}")
    for variant in variants:
        name = f"without {variant}" if variant else "every part"
        print(f"{name:28} median {statistics.median(times[variant]) * 1000:6.0f} ms")


# A worker: a Workspace on a fresh task copy, running each command it reads, answering its time.
WORKER = """
import shutil, sys, tempfile, time
from harness.scenarios import copy_task
from harness.tools import Workspace
folder = tempfile.mkdtemp(prefix="workbook-jail-cost-")
ws = Workspace(copy_task(folder))
for command in sys.stdin:
    ws.new_turn()
    started = time.perf_counter()
    ws.run_command(command.strip())
    print(time.perf_counter() - started, flush=True)
shutil.rmtree(folder)
"""


def against(other: str) -> None:
    """Each command, jailed by this checkout and by `other`, one run of each in turn, which one goes
    first alternating: whichever ran second was up to 200 ms slower here, on the other's heels."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    workers = {}
    for name, tree in (("this checkout", here), ("the other", os.path.abspath(other))):
        env = {**os.environ, "PYTHONPATH": tree}
        workers[name] = subprocess.Popen(
            [sys.executable, "-c", WORKER],
            cwd=tree,
            env=env,
            text=True,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
    times = {(name, command): [] for name in workers for command in COMMANDS}
    for command in COMMANDS:
        for run in range(RUNS + 1):
            for name in sorted(workers, reverse=run % 2 == 1):
                worker = workers[name]
                worker.stdin.write(command + "\n")
                worker.stdin.flush()
                seconds = float(worker.stdout.readline())
                if run:  # the first warms the helper and the caches
                    times[name, command].append(seconds)
    for worker in workers.values():
        worker.stdin.close()
        worker.wait()
    print(f"{RUNS} runs each, interleaved; load average {os.getloadavg()[0]:.1f}; other: {other}")
    for command in COMMANDS:
        medians = [statistics.median(times[name, command]) * 1000 for name in workers]
        print(f"{command:28} this checkout {medians[0]:6.0f} ms   the other {medians[1]:6.0f} ms")


def main() -> None:
    if "--against" in sys.argv[1:]:
        against(sys.argv[sys.argv.index("--against") + 1])
        return
    folder = tempfile.mkdtemp(prefix="workbook-jail-cost-")
    try:
        ws = Workspace(copy_task(folder))
        if "--parts" in sys.argv[1:]:
            if tools.jail_mode() != "root":
                raise SystemExit("--parts needs root: its own uid and the cgroups are root's")
            parts(ws)
        else:
            jailed_and_off(ws)
    finally:
        tools.jail_program.remove_tree(folder)


if __name__ == "__main__":
    main()

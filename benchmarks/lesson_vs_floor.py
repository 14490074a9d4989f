"""Each solution notebook against the floor kernel, alternately: the CPU and wall a lesson adds.

    nice .venv/bin/python benchmarks/lesson_vs_floor.py [--rounds N] [--before TREE] [NN ...]

The floor is the least a lesson can cost: a kernel that imports the SDK and plotly, connects, makes
one glass-box call and shows one chart as the panels draw theirs (harness.widgets.chart). Each
lesson runs between two floor runs (floor, 00, floor, 01, ..., floor), every notebook in a fresh
kernel of this venv driven by nbclient, offline, in solutions/ as nbval runs them; a lesson's ratio
is over the median of the floor runs on either side of it, so a change in the machine's load during
the run moves both. CPU is the user + system time of the kernel and of every process it started (its
start-up and imports included), read as its last cell ends; wall is from the kernel's start to its
last cell's end. With several rounds each figure is the median over the rounds.

With --before TREE (an export of the tree before a change, e.g. `git archive main | tar -x -C
TREE`), each lesson also runs from TREE, its harness first on the kernel's PYTHONPATH, just
before the same lesson from this tree: floor, 00 before, 00, floor, ... The table then has a row
for each, the one before marked so, each over the same floors.

It prints a Markdown table for benchmarks/RESULTS.md, with the load average at the start, at each
row and at the end: on a machine shared with other jobs the wall column moves with the load, the
CPU column much less. Issue 26's targets: every lesson at most 2x the floor's CPU, the median 1.5x.
"""

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import nbformat
import psutil
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
SOLUTIONS = ROOT / "solutions"
TARGET_EACH, TARGET_MEDIAN = 2.0, 1.5  # issue 26, point 6

FLOOR_CELLS = (
    (
        "from google.genai import types\nimport plotly.graph_objects as go\n"
        "from harness import MODEL, connect\nfrom harness.widgets.chart import Chart\n\n"
        "client = connect()"
    ),
    "reply = client.models.generate_content(model=MODEL, contents='Hello.')\nprint(reply.text)",
    (
        "usage = reply.usage_metadata\n"
        "Chart(go.Figure(go.Bar(x=['input', 'output'], "
        "y=[usage.prompt_token_count, usage.candidates_token_count])))"
    ),
)


def floor_notebook() -> nbformat.NotebookNode:
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in FLOOR_CELLS]
    return notebook


def _cpu(process: psutil.Process) -> float:
    """User + system seconds of a process and of the children it has reaped (0 once it is gone)."""
    try:
        t = process.cpu_times()
    except psutil.NoSuchProcess:
        return 0.0
    return t.user + t.system + t.children_user + t.children_system


class _Measured(NotebookClient):
    """Reads the kernel's CPU times after the last cell, as nbclient starts shutting the kernel
    down: the kernel's own, its reaped children's, and those of the processes it still runs (the
    warm helper of harness.plumbing.warm_start lives until the kernel exits)."""

    cpu = 0.0

    async def _async_cleanup_kernel(self) -> None:
        kernel = psutil.Process(self.km.provisioner.process.pid)
        self.cpu = sum(_cpu(p) for p in (kernel, *kernel.children(recursive=True)))
        await super()._async_cleanup_kernel()


def run(notebook: nbformat.NotebookNode, tree: Path = ROOT) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one fresh kernel running `notebook` top to bottom, with the
    harness of `tree` (the kernel inherits this process's environment, PYTHONPATH included)."""
    client = _Measured(
        notebook,
        timeout=600,
        kernel_name="python3",
        resources={"metadata": {"path": str(tree / "solutions")}},
    )
    saved = os.environ.get("PYTHONPATH")
    if tree != ROOT:
        os.environ["PYTHONPATH"] = str(tree)
    start = time.perf_counter()
    try:
        client.execute()
    finally:
        os.environ.pop("PYTHONPATH", None)
        if saved is not None:
            os.environ["PYTHONPATH"] = saved
    return client.cpu, time.perf_counter() - start


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lessons", nargs="*", help="two-digit lesson numbers (default: all)")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--before", type=Path, help="an export of the tree before a change")
    args = parser.parse_args()
    os.environ["WORKBOOK_OFFLINE"] = "1"
    os.environ.pop("WORKBOOK_RECORDING", None)
    notebooks = sorted(SOLUTIONS.glob("[0-9][0-9]_*.ipynb"))
    if args.lessons:
        notebooks = [n for n in notebooks if n.name[:2] in args.lessons]
    trees = [ROOT]
    if args.before:
        trees = [args.before.resolve(), ROOT]
        notebooks = [n for n in notebooks if (trees[0] / "solutions" / n.name).exists()]
    # Each row: (tree, notebook); the floors either side of a lesson are those around its rows.
    rows = [(tree, path) for path in notebooks for tree in trees]
    print(
        f"{time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores, load average {load()} at the "
        f"start; {args.rounds} round(s)\n",
        flush=True,
    )
    floor = floor_notebook()
    floors: list[list[tuple[float, float]]] = [[] for _ in range(len(notebooks) + 1)]
    lessons: list[list[tuple[float, float]]] = [[] for _ in rows]
    loads: list[list[float]] = [[] for _ in rows]
    for _ in range(args.rounds):
        floors[0].append(run(floor))
        for index, (tree, path) in enumerate(rows):
            notebook = nbformat.read(tree / "solutions" / path.name, as_version=4)
            lessons[index].append(run(notebook, tree))
            loads[index].append(os.getloadavg()[0])
            if tree == ROOT:
                floors[index // len(trees) + 1].append(run(floor))
    print("| lesson | CPU s | floor CPU s | x CPU | wall s | floor wall s | x wall | load |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    cpu_ratios: dict[Path, list[float]] = {tree: [] for tree in trees}
    wall_ratios: dict[Path, list[float]] = {tree: [] for tree in trees}
    for index, (tree, path) in enumerate(rows):
        around = floors[index // len(trees)] + floors[index // len(trees) + 1]
        floor_cpu = statistics.median(c for c, _ in around)
        floor_wall = statistics.median(w for _, w in around)
        cpu = statistics.median(c for c, _ in lessons[index])
        wall = statistics.median(w for _, w in lessons[index])
        label = path.stem if tree == ROOT else f"{path.stem} (before)"
        cpu_ratios[tree].append(cpu / floor_cpu)
        wall_ratios[tree].append(wall / floor_wall)
        print(
            f"| {label} | {cpu:.2f} | {floor_cpu:.2f} | {cpu / floor_cpu:.2f} | {wall:.1f} | "
            f"{floor_wall:.1f} | {wall / floor_wall:.2f} | {statistics.median(loads[index]):.1f} |",
            flush=True,
        )
    print()
    for tree in trees:
        cpu, wall = cpu_ratios[tree], wall_ratios[tree]
        over = [p.name[:2] for p, r in zip(notebooks, cpu) if r > TARGET_EACH]
        print(
            f"{'Before' if tree != ROOT else 'This tree'}: median ratio CPU "
            f"{statistics.median(cpu):.2f}x (target {TARGET_MEDIAN}x), wall "
            f"{statistics.median(wall):.2f}x; worst CPU {max(cpu):.2f}x; over {TARGET_EACH}x: "
            f"{', '.join(over) or 'none'}."
        )
    print(f"Load average {load()} at the end.")


if __name__ == "__main__":
    sys.exit(main())

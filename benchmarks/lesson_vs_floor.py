"""Each solution notebook against the floor kernel, run alternately: the CPU and wall time a lesson adds.

    nice .venv/bin/python benchmarks/lesson_vs_floor.py [--rounds N] [NN ...]

The floor is the least a lesson can cost: a kernel that imports the SDK and plotly, connects, makes
one glass-box call and shows one chart. Each lesson runs between two floor runs (floor, 00, floor,
01, ..., floor), every notebook in a fresh kernel of this venv driven by nbclient, offline, in
solutions/ as nbval runs them; a lesson's ratio is over the median of the floor runs on either side
of it, so a change in the machine's load during the run moves both. CPU is the user + system time
of the kernel and of every process it started (its start-up and imports included), read as its
last cell ends; wall is from the kernel's start to its last cell's end. With several rounds each
figure is the median over the rounds.

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
        "from harness import MODEL, connect\n\nclient = connect()"
    ),
    "reply = client.models.generate_content(model=MODEL, contents='Hello.')\nprint(reply.text)",
    (
        "usage = reply.usage_metadata\n"
        "go.FigureWidget(go.Bar(x=['input', 'output'], "
        "y=[usage.prompt_token_count, usage.candidates_token_count]))"
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
    warm pytest helper of harness.plumbing.warm_pytest lives until the kernel exits)."""

    cpu = 0.0

    async def _async_cleanup_kernel(self) -> None:
        kernel = psutil.Process(self.km.provisioner.process.pid)
        self.cpu = sum(_cpu(p) for p in (kernel, *kernel.children(recursive=True)))
        await super()._async_cleanup_kernel()


def run(notebook: nbformat.NotebookNode) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one fresh kernel running `notebook` top to bottom."""
    client = _Measured(
        notebook,
        timeout=600,
        kernel_name="python3",
        resources={"metadata": {"path": str(SOLUTIONS)}},
    )
    start = time.perf_counter()
    client.execute()
    return client.cpu, time.perf_counter() - start


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lessons", nargs="*", help="two-digit lesson numbers (default: all)")
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    os.environ["WORKBOOK_OFFLINE"] = "1"
    os.environ.pop("WORKBOOK_RECORDING", None)
    notebooks = sorted(SOLUTIONS.glob("[0-9][0-9]_*.ipynb"))
    if args.lessons:
        notebooks = [n for n in notebooks if n.name[:2] in args.lessons]
    print(
        f"{time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores, load average {load()} at the "
        f"start; {args.rounds} round(s)\n",
        flush=True,
    )
    floor = floor_notebook()
    floors: list[list[tuple[float, float]]] = [[] for _ in range(len(notebooks) + 1)]
    lessons: list[list[tuple[float, float]]] = [[] for _ in notebooks]
    loads: list[list[float]] = [[] for _ in notebooks]
    for _ in range(args.rounds):
        floors[0].append(run(floor))
        for index, path in enumerate(notebooks):
            lessons[index].append(run(nbformat.read(path, as_version=4)))
            floors[index + 1].append(run(floor))
            loads[index].append(os.getloadavg()[0])
    print("| lesson | CPU s | floor CPU s | x CPU | wall s | floor wall s | x wall | load |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    cpu_ratios, wall_ratios = [], []
    for index, path in enumerate(notebooks):
        around = floors[index] + floors[index + 1]
        floor_cpu = statistics.median(c for c, _ in around)
        floor_wall = statistics.median(w for _, w in around)
        cpu = statistics.median(c for c, _ in lessons[index])
        wall = statistics.median(w for _, w in lessons[index])
        cpu_ratios.append(cpu / floor_cpu)
        wall_ratios.append(wall / floor_wall)
        print(
            f"| {path.stem} | {cpu:.2f} | {floor_cpu:.2f} | {cpu / floor_cpu:.2f} | {wall:.1f} | "
            f"{floor_wall:.1f} | {wall / floor_wall:.2f} | {statistics.median(loads[index]):.1f} |",
            flush=True,
        )
    over = [p.name[:2] for p, r in zip(notebooks, cpu_ratios) if r > TARGET_EACH]
    print(
        f"\nMedian ratio: CPU {statistics.median(cpu_ratios):.2f}x (target {TARGET_MEDIAN}x), wall "
        f"{statistics.median(wall_ratios):.2f}x; worst CPU {max(cpu_ratios):.2f}x; over "
        f"{TARGET_EACH}x: {', '.join(over) or 'none'}; load average {load()} at the end."
    )


if __name__ == "__main__":
    sys.exit(main())

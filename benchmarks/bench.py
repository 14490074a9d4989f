"""`make bench`: the workbook's performance figures, measured in one run on this machine.

Prints figures only; nothing here passes or fails. Targets (from the issues) are shown beside them.
"""

import os
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

os.environ.setdefault("WORKBOOK_OFFLINE", "1")  # benchmarks never reach Gemini

from harness import MODEL, connect  # noqa: E402
from harness.context import build_context, build_context_naive  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def median_ms(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def bench_round_trip() -> None:
    client = connect()
    call = lambda: client.models.generate_content(model=MODEL, contents="What is a context window?")  # noqa: E731
    call()  # the first call starts the engine and opens the connection
    print(
        f"glass-box generateContent round trip through the SDK: median {median_ms(call, 200):.2f}"
        " ms over 200 calls (target < 5 ms)"
    )


def sample_turns(n: int, rng: random.Random) -> list[tuple[str, str]]:
    words = "context budget token cache summary turn model user tool output verdict".split()
    return [
        ("user" if i % 2 == 0 else "model", " ".join(rng.choices(words, k=rng.randint(20, 60))))
        for i in range(n)
    ]


def bench_build_context() -> None:
    rng = random.Random(7)
    print(
        "build_context vs a naive version that re-renders and re-counts after each drop (the style"
        " of « Ordonner le contexte et tenir un budget »):"
    )
    for n in (100, 1_000, 5_000):
        turns = sample_turns(n, rng)
        facts = [f"fact {i}: the user likes item {i}" for i in range(20)]
        args = (
            "You are a helpful tutor.",
            facts,
            "The user is learning about budgets.",
            turns,
            "What next?",
        )
        budget = 2_000  # tight, so most turns are dropped: the naive version's worst case
        repeats = 5 if n < 5_000 else 1
        fast = median_ms(lambda: build_context(*args, budget=budget), repeats)
        naive = median_ms(lambda: build_context_naive(*args, budget=budget), repeats)
        print(
            f"  {n:>5} turns: build_context {fast:8.2f} ms   naive {naive:10.1f} ms   ratio"
            f" {naive / fast:7.1f}x"
        )
    print(
        "  (targets: linear growth for build_context; at least 20x faster than naive at 5,000"
        " turns)"
    )


def children_cpu_seconds() -> float:
    """CPU time of every finished process this one started, and of theirs (kernels, pytest
    workers)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


# The least a lesson does: connect, make one call, draw one chart, import the checks. With the real
# SDK and plotly this is the floor of any lesson's cost, whatever the lesson then does.
LESSON_FLOOR = """from harness import MODEL, connect
client = connect()
client.models.generate_content(model=MODEL, contents="What is a context window?")
import plotly.graph_objects as go
from harness.widgets.chart import Chart
Chart(go.Figure(data=[go.Bar(x=[1], y=[2])]))
from harness.checks import check"""


def kernels_seconds(count: int, source: str = "pass", at_once: int = 2) -> tuple[float, float]:
    """Wall and CPU time to run `count` kernels, one cell (`source`) each, `at_once` at a time."""
    from concurrent.futures import ThreadPoolExecutor

    import nbformat
    from nbclient import NotebookClient

    def one(_):
        nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source)])
        NotebookClient(nb, timeout=120, kernel_name="python3").execute()

    start, cpu = time.perf_counter(), children_cpu_seconds()
    with ThreadPoolExecutor(max_workers=at_once) as pool:
        list(pool.map(one, range(count)))
    return time.perf_counter() - start, children_cpu_seconds() - cpu


def bench_notebooks() -> None:
    notebooks = sorted((ROOT / "solutions").glob("*.ipynb"))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    # Bare kernels just before and just after the suite: on a shared machine the load moves, and
    # the ratio is only fair when both sides ran under the same load. Two baselines: two at a time,
    # as the suite runs its kernels, and one after another, which is how issue 10 appears to have
    # measured its "12.9 s for ten bare kernels" (here ten take 13-15 s one after another and
    # 6-8 s two at a time, 2026-12-01); its 2.5x target is read against that one.
    pair_before, pair_cpu_before = kernels_seconds(len(notebooks))
    serial_before, serial_cpu_before = kernels_seconds(len(notebooks), at_once=1)
    start, cpu = time.perf_counter(), children_cpu_seconds()
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-n",
            "2",
            "--dist",
            "loadfile",
            "--nbval-lax",
            "--nbval-current-env",
            "-p",
            "no:randomly",
            "solutions",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    seconds, cpu = time.perf_counter() - start, children_cpu_seconds() - cpu
    last = run.stdout.strip().splitlines()[-1] if run.stdout.strip() else "no output"
    print(
        f"solution notebook suite (pytest --nbval-lax -n 2 --dist loadfile): {seconds:.1f} s wall, "
        f"{cpu:.1f} s CPU ({last})"
    )
    serial_after, serial_cpu_after = kernels_seconds(len(notebooks), at_once=1)
    pair_after, pair_cpu_after = kernels_seconds(len(notebooks))
    end_load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"  load average {load:.1f} -> {end_load:.1f} on {os.cpu_count()} cores; {len(notebooks)}"
        " bare kernels, before and after the suite:"
    )
    for label, before, after, cpu_before, cpu_after, target in (
        (
            "one after another",
            serial_before,
            serial_after,
            serial_cpu_before,
            serial_cpu_after,
            " (target at most 2.5x)",
        ),
        ("two at a time", pair_before, pair_after, pair_cpu_before, pair_cpu_after, ""),
    ):
        # CPU time moves less with the other work on a shared machine than wall time does.
        wall, busy = (before + after) / 2, (cpu_before + cpu_after) / 2
        print(
            f"    {label:17}: {before:.1f} s and {after:.1f} s; the suite costs"
            f" {seconds / wall:.1f}x their mean{target}; in CPU time {cpu_before:.1f} s and"
            f" {cpu_after:.1f} s, the suite {cpu / busy:.1f}x"
        )
    bare, bare_cpu = (pair_before + pair_after) / 2, (pair_cpu_before + pair_cpu_after) / 2
    floor, floor_cpu = kernels_seconds(len(notebooks), LESSON_FLOOR)
    print(
        f"  the floor: {len(notebooks)} kernels that only connect, call once and draw one chart,"
        f" two at a time, take {floor:.1f} s ({floor / bare:.1f}x the bare kernels two at a time)"
        f" and {floor_cpu:.1f} s CPU ({floor_cpu / bare_cpu:.1f}x)"
    )


def bench_grading() -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_grading import bench_grading as grade_cohort

    grade_cohort(students=40, lessons=4)


if __name__ == "__main__":
    print(f"Measured on this machine ({os.cpu_count()} cores), {time.strftime('%Y-%m-%d %H:%M')}")
    bench_round_trip()
    bench_build_context()
    bench_notebooks()
    bench_grading()

"""The machine-time column of INSTRUCTORS.md: each solution notebook run on its own, top to bottom.

    .venv/bin/python benchmarks/lesson_times.py [NN ...]

Runs `pytest --nbval-lax --nbval-current-env solutions/NN_*.ipynb` once per lesson (or only for the
lessons named by their two digits), one after the other, offline, and prints the time pytest
reports (kernel start-up and every cell: what a student waits for), the process's whole wall time
(pytest's own start-up too) and the load average, since other work on the machine slows it down.
"""

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    print(
        f"{time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores, "
        f"load average {os.getloadavg()[0]:.1f} at the start"
    )
    for notebook in sorted((ROOT / "solutions").glob("*.ipynb")):
        if sys.argv[1:] and notebook.name[:2] not in sys.argv[1:]:
            continue
        start = time.perf_counter()
        run = subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "-q",
                "--nbval-lax",
                "--nbval-current-env",
                "-p",
                "no:randomly",
                str(notebook.relative_to(ROOT)),
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            env={**os.environ, "WORKBOOK_OFFLINE": "1"},
        )
        seconds = time.perf_counter() - start
        verdict = run.stdout.strip().splitlines()[-1] if run.stdout.strip() else "no output"
        print(
            f"{notebook.stem:28} {verdict:34} {seconds:5.1f} s wall with pytest's start-up; "
            f"load {os.getloadavg()[0]:.1f}",
            flush=True,
        )


if __name__ == "__main__":
    main()

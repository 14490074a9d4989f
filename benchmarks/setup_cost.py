"""What `make setup` costs from nothing: its wall time and the size of the venv it leaves.

    nice .venv/bin/python benchmarks/setup_cost.py

Runs the Makefile's install steps (a new venv, pip upgraded, the project installed editable with
its `hub` and `test` extras) into a temporary folder, with pip's cache off, so every package is
fetched and unpacked as on a student's first run; then prints the wall time, the CPU time of the
install, the venv's size on disk and the load average. README.md and INSTRUCTORS.md quote these
figures (tests/test_stated_figures.py holds them to naming this script); a download's speed
depends on the line, so the wall time is this machine's, on its index.
"""

import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def size_of(folder: Path) -> int:
    """Bytes on disk of every file under `folder` (links not followed)."""
    return sum(p.lstat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


def main() -> None:
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    with tempfile.TemporaryDirectory(prefix="workbook-setup-cost-") as folder:
        venv = Path(folder) / ".venv"
        pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "--no-cache-dir"]
        env = {**os.environ, "PIP_NO_CACHE_DIR": "1"}
        started = time.monotonic()
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([*pip, "--upgrade", "pip"], check=True, env=env)
        subprocess.run([*pip, "-e", f"{ROOT}[hub,test]"], check=True, env=env)
        wall = time.monotonic() - started
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        size = size_of(venv)
    minutes, seconds = divmod(round(wall), 60)
    print(
        f"{time.strftime('%Y-%m-%d')}: make setup's install from nothing took {minutes} min "
        f"{seconds:02d} s wall, {children.ru_utime + children.ru_stime:.0f} CPU-s; the venv holds "
        f"{size / 1e6:.0f} MB; load average {load} at the start, "
        f"{' '.join(f'{x:.1f}' for x in os.getloadavg())} at the end."
    )


if __name__ == "__main__":
    sys.exit(main())

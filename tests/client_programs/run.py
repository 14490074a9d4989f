"""Run client programs written for Gemini against the glass box, with no key and no network.

    python tests/client_programs/run.py generate_contents_forms.py [more.py ...]
    python tests/client_programs/run.py --all

Each program in this folder is what a student or a tutorial writes for Gemini: it reads its key from
GEMINI_API_KEY and, through the SDK, its address from GOOGLE_GEMINI_BASE_URL (google-genai's own
setting; a raw-HTTP or openai program reads the same variable, defaulting to Google's host). This
runner starts the glass box in its own process, points those variables at it and runs each program
as `__main__`, so the same file runs unchanged against real Gemini when they are left unset.
"""

import os
import runpy
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
OFFLINE_KEY = (  # any non-empty key: the glass box checks that one is sent, not its value
    "glass-box-offline"
)


def programs() -> list[Path]:
    """Every client program of this folder, in name order (this runner and helpers start with _
    or run)."""
    return sorted(p for p in HERE.glob("*.py") if p.name != "run.py" and not p.name.startswith("_"))


def point_at_glass_box(environ=os.environ) -> str:
    """Start the glass box and set the variables a Gemini program reads; the base URL."""
    if str(HERE.parents[1]) not in sys.path:
        sys.path.insert(0, str(HERE.parents[1]))  # the project's harness, when run from anywhere
    from harness.engine.server import ensure_running

    base = ensure_running()
    for name in ("GOOGLE_API_KEY", "GOOGLE_GENAI_USE_VERTEXAI", "GOOGLE_CLOUD_PROJECT"):
        # the SDK prefers GOOGLE_API_KEY and Vertex settings: neither is ours
        environ.pop(name, None)
    environ.update(GEMINI_API_KEY=OFFLINE_KEY, GOOGLE_GEMINI_BASE_URL=base)
    return base


def run_program(path: Path) -> dict:
    """Run one program as `__main__`; its globals, for a test to read what it computed."""
    return runpy.run_path(str(path), run_name="__main__")


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    paths = programs() if argv == ["--all"] else [HERE / name for name in argv]
    missing = [p.name for p in paths if not p.is_file()]
    if missing:
        print(f"No such program in {HERE}: {', '.join(missing)}", file=sys.stderr)
        return 2
    point_at_glass_box()
    for path in paths:
        print(f"=== {path.name}")
        run_program(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

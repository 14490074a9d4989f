"""Proof that a speed-up moved no figure: a digest of every solution cell's text outputs.

    .venv/bin/python benchmarks/outputs_digest.py > before.txt      # before the change
    .venv/bin/python benchmarks/outputs_digest.py > after.txt       # after it
    diff before.txt after.txt                                       # nothing: the lessons show the same

Each solution notebook is executed with nbclient in a fresh kernel (offline, checks raising, as
the test suite runs them); one line per code cell gives a short digest of its text outputs (stream
text, text/plain, text/html, text/markdown, the check MIME bundle, error names). Cells marked
`# NBVAL_IGNORE_OUTPUT` are left out, as nbval leaves them out, and so are time-like numbers
("0.42 s", "12 ms", "3.1 seconds"), which move from run to run. Widget state is not digested.
Figures computed from a clock still differ (lesson 03's speed ratios, the byte size of lesson 06's
checkpoint, which records each turn's seconds): `--show` on that notebook tells them apart.
Give notebook paths to digest only those; `--show` prints the normalised text instead of its digest.
"""

import hashlib
import json
import os
import re
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
TEXT_TYPES = ("text/plain", "text/html", "text/markdown", "application/vnd.workbook.check+json")
# "0.42 s", "12 ms", "3.1 seconds", "1.2 s/turn": wall-clock figures, which differ between runs.
TIME_LIKE = re.compile(r"\d[\d,.]*\s*(?:ms|µs|us|s|sec|secs|seconds?)\b")
# A kernel's object addresses and temporary folders change between runs too.
VOLATILE = re.compile(r"0x[0-9a-f]{6,}|/tmp/[\w.-]+")


def output_text(output) -> str:
    """The text an output shows, whatever its kind."""
    if output.output_type == "stream":
        return output.text
    if output.output_type == "error":
        return f"{output.ename}: {output.evalue}\n"
    data = output.get("data", {})
    return "".join(
        (data[kind] if isinstance(data[kind], str) else json.dumps(data[kind], sort_keys=True))
        + "\n"
        for kind in TEXT_TYPES
        if kind in data
    )


def normalised(text: str) -> str:
    return VOLATILE.sub("<volatile>", TIME_LIKE.sub("<time>", text))


def executed(path: Path):
    notebook = nbformat.read(path, as_version=4)
    env = {"WORKBOOK_OFFLINE": "1", "WORKBOOK_CHECKS_RAISE": "1"}
    os.environ.update(env)
    NotebookClient(
        notebook,
        timeout=600,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
        allow_errors=True,
    ).execute()
    return notebook


def cell_lines(path: Path, show: bool):
    notebook = executed(path)
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type != "code":
            continue
        if "NBVAL_IGNORE_OUTPUT" in cell.source:
            yield f"{path.name} cell {index}: ignored"
            continue
        # Joined with nothing between: a kernel may send one print as one stream output or as
        # several.
        text = normalised("".join(output_text(o) for o in cell.outputs))
        shown = text if show else hashlib.sha256(text.encode()).hexdigest()[:16]
        yield f"{path.name} cell {index}: {shown}"


def main(argv: list[str]) -> None:
    show = "--show" in argv
    paths = [Path(a) for a in argv if a != "--show"] or sorted((ROOT / "solutions").glob("*.ipynb"))
    for path in paths:
        for line in cell_lines(path.resolve(), show):
            print(line, flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])

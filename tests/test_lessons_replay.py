"""Every lesson is recorded on the glass box and replayed from the recording alone, with the same
outputs: what reaches the model depends on neither the temp folder's name nor the clock, and lesson
11's server-held session (`client.interactions`, POST /v1beta/interactions) is recorded and replayed
like generateContent.

Each lesson runs twice, each time in a fresh kernel (WORKBOOK_RECORDING=record:<file>, then
replay:<file>): a kernel that had already run the lesson would answer from the harness's own caches
of glass-box runs and never ask the recording.

All 13 lessons took 148 s on this machine at load average about 1, and 215 s at 5-6 (2 cores shared
with other work, measured 2026-12-02): 4-7 s for lessons 00-02, up to 25-30 s for lessons 07, 10 and
11 (lesson 11 makes 340 exchanges). Under `make test`'s --dist loadfile the file runs on one worker.
After the replay one more cell asks the kernel's replay server how many recorded answers it never
gave: 0, or the replay skipped part of the recording and proved nothing about it.
"""

import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

SOLUTIONS = Path(__file__).resolve().parent.parent / "solutions"
LESSONS = tuple(sorted(path.name[:2] for path in SOLUTIONS.glob("[0-9][0-9]_*.ipynb")))
CELL_TIMEOUT = 300
BYTES = re.compile(r"\([\d,]+ bytes\)")
# Lesson 03 times its two assemblers with perf_counter and prints the times beside the (exact)
# counts: wall clock, which no recording can replay, and the lesson's point that the times follow
# the counts. So there, and only there, a figure in milliseconds is not compared, nor the padding
# that right-aligns it (a time of 9.8 ms and one of 10.2 ms take columns of different widths).
WALL_CLOCK = {"03": re.compile(r" *\b\d[\d,]*\.\d ms\b")}


# Run last in the replaying kernel: how many recorded answers its replay server never gave. The
# server (harness.engine.server, one per recording) is reached through its private table: no lesson
# needs it.
UNASKED = """
from pathlib import Path
from harness.engine import server
print("unasked:", server._servers[str(Path({path!r}).resolve())].answer.__self__.unasked())
"""


def run(notebook: Path, setting: str, monkeypatch, last: str = "") -> list[tuple[int, str]]:
    """(cell index, everything it printed or showed as text) for each code cell, in a new kernel;
    `last`, when given, runs as one more cell at the end."""
    monkeypatch.setenv("WORKBOOK_OFFLINE", "1")
    # the kernel inherits this process's environment
    monkeypatch.setenv("WORKBOOK_RECORDING", setting)
    nb = nbformat.read(notebook, as_version=4)
    if last:
        nb.cells.append(nbformat.v4.new_code_cell(last))
    NotebookClient(
        nb,
        timeout=CELL_TIMEOUT,
        kernel_name="python3",
        allow_errors=True,
        resources={"metadata": {"path": str(notebook.parent)}},
    ).execute()
    shown = []
    for index, cell in enumerate(nb.cells):
        texts = [
            (
                o.get("text", "")
                if o.output_type == "stream"
                else (
                    f"{o.ename}: {o.evalue}"
                    if o.output_type == "error"
                    else o.get("data", {}).get("text/plain", "")
                )
            )
            for o in cell.get("outputs", [])
        ]
        if cell.cell_type == "code":
            shown.append((index, "".join(texts)))
    return shown


def test_every_lesson_is_in_the_list():
    """LESSONS is read from solutions/: the numbers run from 00 with no gap, and the capstone is
    last."""
    assert LESSONS == tuple(f"{n:02d}" for n in range(len(LESSONS))), LESSONS
    assert next(SOLUTIONS.glob(f"{LESSONS[-1]}_*.ipynb")).stem.endswith("capstone")


@pytest.mark.parametrize("lesson", LESSONS)
def test_a_lesson_replays_from_its_recording_with_the_same_outputs(lesson, tmp_path, monkeypatch):
    notebook = next(SOLUTIONS.glob(f"{lesson}_*.ipynb"))
    recording = tmp_path / f"{lesson}.jsonl"
    recorded = run(notebook, f"record:{recording}", monkeypatch)
    exchanges = len(recording.read_text(encoding="utf-8").splitlines())
    *replayed, (_, unasked) = run(
        notebook, f"replay:{recording}", monkeypatch, UNASKED.format(path=str(recording))
    )
    assert exchanges > 0, "the lesson made no model call: nothing was recorded"
    assert unasked == "unasked: 0\n", (
        f"the replay did not ask for every recorded exchange ({exchanges}): {unasked}"
    )
    lines = [line for _, text in replayed for line in text.splitlines()]
    assert any(line.startswith("Replay:") for line in lines), (
        "the lesson did not say it was replaying"
    )
    wall_clock = WALL_CLOCK.get(lesson)

    def steady(shown):
        """The outputs without what differs by design: the line saying where calls go, a
        checkpoint's size in bytes (its records keep each turn's wall time, which no request
        carries), and lesson 03's timings."""
        steadied = []
        for i, text in shown:
            text = BYTES.sub(
                "(N bytes)",
                "\n".join(
                    line
                    for line in text.splitlines()
                    if not line.startswith(("Offline:", "Replay:"))
                ),
            )
            steadied.append((i, wall_clock.sub(" N ms", text) if wall_clock else text))
        return steadied

    assert not any("not recorded" in text for _, text in replayed), "a request missed the recording"
    differing = [(a, b) for a, b in zip(steady(recorded), steady(replayed)) if a != b]
    assert not differing, (
        f"{notebook.name}: {len(differing)} cell(s) differ on replay, first: {differing[0]}"
    )

"""Every lesson that runs an agent is recorded on the glass box and replayed from the recording alone,
with the same outputs: what reaches the model depends on neither the temp folder's name nor the clock.

Each lesson runs twice in a fresh kernel (WORKBOOK_RECORDING=record:<file>, then replay:<file>), which
took 230 s for the five lessons on this machine (2 cores shared, measured 2026-12-01). So this file runs the five
lessons whose agents write files and run commands (04, 05, 06, 07, 12); lessons 00-03 and 08 replayed
the same way when measured, with only lesson 03's printed timings differing.
"""
import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

SOLUTIONS = Path(__file__).resolve().parent.parent / "solutions"
LESSONS = ("04", "05", "06", "07", "09", "10", "12")
CELL_TIMEOUT = 300
BYTES = re.compile(r"\([\d,]+ bytes\)")


def run(notebook: Path, setting: str, monkeypatch) -> list[tuple[int, str]]:
    """(cell index, everything it printed or showed as text) for each code cell, in a new kernel."""
    monkeypatch.setenv("WORKBOOK_OFFLINE", "1")
    monkeypatch.setenv("WORKBOOK_RECORDING", setting)  # the kernel inherits this process's environment
    nb = nbformat.read(notebook, as_version=4)
    NotebookClient(nb, timeout=CELL_TIMEOUT, kernel_name="python3", allow_errors=True,
                   resources={"metadata": {"path": str(notebook.parent)}}).execute()
    shown = []
    for index, cell in enumerate(nb.cells):
        texts = [o.get("text", "") if o.output_type == "stream" else
                 f"{o.ename}: {o.evalue}" if o.output_type == "error" else o.get("data", {}).get("text/plain", "")
                 for o in cell.get("outputs", [])]
        if cell.cell_type == "code":
            shown.append((index, "".join(texts)))
    return shown


@pytest.mark.parametrize("lesson", LESSONS)
def test_a_lesson_replays_from_its_recording_with_the_same_outputs(lesson, tmp_path, monkeypatch):
    notebook = next(SOLUTIONS.glob(f"{lesson}_*.ipynb"))
    recording = tmp_path / f"{lesson}.jsonl"
    recorded = run(notebook, f"record:{recording}", monkeypatch)
    exchanges = len(recording.read_text(encoding="utf-8").splitlines())
    replayed = run(notebook, f"replay:{recording}", monkeypatch)
    assert exchanges > 0, "the lesson made no model call: nothing was recorded"

    def steady(shown):
        """The outputs without what differs by design: the line saying where calls go, and a checkpoint's
        size in bytes (its records keep each turn's wall time, which no request carries)."""
        return [(i, BYTES.sub("(N bytes)", "\n".join(line for line in text.splitlines()
                                                     if not line.startswith(("Offline:", "Replay:")))))
                for i, text in shown]
    assert not any("not recorded" in text for _, text in replayed), "a request missed the recording"
    differing = [(a, b) for a, b in zip(steady(recorded), steady(replayed)) if a != b]
    assert not differing, f"{notebook.name}: {len(differing)} cell(s) differ on replay, first: {differing[0]}"

"""A grader killed mid-cohort keeps what it finished, leaves nothing running, and a second run
completes it.

Four students, graded one at a time: the grader is SIGKILLed once the first student's results are on
disk while the second student's notebook is running (and has started a detached process). Every
graded process carries TMPDIR inside this test's own folder, which is how the test finds them.
"""

import csv
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from test_workbook_check import write_fake_lesson

from harness.workbook import ROOT, gradebook
from harness.workbook.sandbox import can_isolate

STUDENTS = ("ada", "bob", "cal", "dan")
SOLVED = {"double": "    return 2 * x", "triple": "    return 3 * x"}
# bob is still being graded when the grader is killed
DETACHED = (
    "import subprocess\nsubprocess.Popen(['sleep', '600'], start_new_session=True)",
    "import time\ntime.sleep(15)",
)


def processes_under(folder: Path) -> list[tuple[int, int, str]]:
    """(pid, uid, command line) of every process whose TMPDIR lies in `folder`."""
    tag = f"TMPDIR={folder}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and any(
                v.startswith(tag) for v in (entry / "environ").read_bytes().split(b"\0")
            ):
                found.append(
                    (
                        int(entry.name),
                        entry.stat().st_uid,
                        (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(),
                    )
                )
        except OSError:
            continue  # gone meanwhile, or not ours to read
    return found


def wait_for(condition, seconds: float, what: str):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if found := condition():
            return found
        time.sleep(0.2)
    pytest.fail(f"waited {seconds:g} s for {what}")


def grade_command(root: Path) -> list[str]:
    return [
        sys.executable,
        "-m",
        "harness",
        "grade",
        str(root / "submissions"),
        "--lessons",
        str(root / "reference"),
        "--out",
        str(root / "out"),
        "--jobs",
        "1",
        "--cell-timeout",
        "30",
    ]


@pytest.fixture(scope="module")
def crashed(tmp_path_factory):
    root = tmp_path_factory.mktemp("crash")
    write_fake_lesson(root / "reference" / "91_one.ipynb")
    write_fake_lesson(root / "submissions" / "ada" / "91_one.ipynb", **SOLVED)
    write_fake_lesson(root / "submissions" / "bob" / "91_one.ipynb", **SOLVED, extra=DETACHED)
    write_fake_lesson(root / "submissions" / "cal" / "91_one.ipynb", "    return x")
    write_fake_lesson(root / "submissions" / "dan" / "91_one.ipynb")
    # A folder every grading uid can cross (pytest's own is closed to them), holding every sandbox.
    tmp = Path(tempfile.mkdtemp(prefix="grade-crash-", dir="/tmp"))
    tmp.chmod(0o711)
    env = {**os.environ, "TMPDIR": str(tmp)}
    first = root / "out" / "results" / "ada.json"
    grader = subprocess.Popen(
        grade_command(root), cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        wait_for(
            lambda: first.exists() and any("sleep 600" in p[2] for p in processes_under(tmp)),
            600,
            "ada's results and bob's detached process",
        )
        grader.send_signal(signal.SIGKILL)
        grader.communicate(timeout=60)
        ada_bytes = first.read_bytes()
        results_after_kill = sorted(p.name for p in first.parent.iterdir())
        csv_after_kill = (root / "out" / "gradebook.csv").read_text(encoding="utf-8")
        # What a kill inside `record` would leave: a temporary file, half written.
        (first.parent / ".bob.json.999.partial").write_text(
            '{"student": "bob", "less', encoding="utf-8"
        )
        wait_for(
            lambda: not any("ipykernel" in p[2] for p in processes_under(tmp)),
            120,
            "bob's kernel to end",
        )
        survivors = processes_under(tmp)
        resumed = subprocess.run(
            grade_command(root), cwd=ROOT, env=env, capture_output=True, text=True, timeout=900
        )
        after_resume = processes_under(tmp)
        yield {
            "root": root,
            "ada_bytes": ada_bytes,
            "results_after_kill": results_after_kill,
            "csv_after_kill": csv_after_kill,
            "survivors": survivors,
            "resumed": resumed,
            "after_resume": after_resume,
        }
    finally:
        if grader.poll() is None:
            grader.kill()
        for pid, _, _ in processes_under(tmp):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        shutil.rmtree(tmp, ignore_errors=True)


def test_the_finished_students_results_survive_the_kill(crashed):
    assert crashed["results_after_kill"] == ["ada.json"]  # bob was never finished, so never written
    saved = json.loads(crashed["ada_bytes"])
    assert [(r["exercise"], r["status"]) for r in saved["lessons"]["91_one"]["results"]] == [
        ("99.1", "passed"),
        ("99.2", "passed"),
    ]
    rows = list(csv.DictReader(crashed["csv_after_kill"].splitlines()))
    assert {r["student"] for r in rows} == {"ada"} and all(r["status"] == "passed" for r in rows)


def test_results_are_written_to_a_temporary_file_flushed_then_renamed(tmp_path, monkeypatch):
    target = tmp_path / "results" / "ada.json"
    gradebook._write_atomically(target, "old")
    calls = []
    monkeypatch.setattr(os, "fsync", lambda fd: calls.append("fsync"))

    def crash(source, destination):
        calls.append("replace")
        raise KeyboardInterrupt("killed between the write and the rename")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(KeyboardInterrupt):
        gradebook._write_atomically(target, "new")
    assert target.read_text() == "old", "a write cut short must leave the previous file whole"
    assert calls == [
        "fsync",
        "replace",
    ], "the temporary file must reach the disk before it is renamed over the result"
    assert [p.name for p in target.parent.glob("*.json")] == ["ada.json"]


def test_the_kernel_ends_with_the_grader_and_as_root_nothing_is_left(crashed):
    left = crashed["survivors"]
    assert not any("ipykernel" in command for _, _, command in left), left
    if (
        can_isolate()
        # as root the kernel runs in a pid namespace of its own (harness.plumbing.jail): it ends with
    ):
        # its init, which dies with the grader, so not even a detached process is left
        assert left == [], left


@pytest.mark.skipif(
    not can_isolate(),
    reason=(
        "as the instructor, a leftover of a killed grader cannot be told from "
        "any other process of the instructor's: it is killed only as root, by its grading uid"
    ),
)
def test_the_next_run_kills_what_the_killed_grader_left(crashed):
    assert crashed["after_resume"] == [], crashed["after_resume"]


def test_grading_again_completes_the_cohort_without_regrading_the_finished(crashed):
    resumed, out = crashed["resumed"], crashed["root"] / "out"
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert "Kept 1 of 4 results (student x lesson) already graded" in resumed.stderr
    assert (out / "results" / "ada.json").read_bytes() == crashed["ada_bytes"], (
        "ada was graded again"
    )
    assert not list(out.rglob("*.partial")), "a half-written file was left in the gradebook folder"
    with (out / "gradebook.csv").open(encoding="utf-8") as file:
        rows = {(r["student"], r["exercise"]): r["status"] for r in csv.DictReader(file)}
    assert {s for s, _ in rows} == set(STUDENTS)
    assert (
        rows[("bob", "99.1")] == "passed"
        and rows[("cal", "99.1")] == "failed"
        and rows[("dan", "99.1")] == "not attempted"
    )

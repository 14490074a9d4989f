"""Checkpoints as a journal: a run killed anywhere resumes with no turn lost or repeated and ends as
an uninterrupted run does; every kind of damaged file gets one clear message; no secret is written.
"""

import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import pytest
from google.genai import types

from harness.agent import AgentConfig, TurnRecord, run_agent
from harness.agent.checkpoint import (
    CheckpointDamaged,
    append_turn,
    checksum,
    load_checkpoint,
    start_checkpoint,
)

# Resumes from sys.argv[1] into the workdir sys.argv[2] (the same folder every time). With
# TEAR=<n>:<fraction> the n-th checkpoint write stops after that fraction of its bytes and the
# process SIGKILLs itself: a kill inside a write, at a byte chosen by the test.
RUNNER = textwrap.dedent("""
    import os, signal, sys
    from harness.agent import AgentConfig, checkpoint, run_agent
    if os.environ.get("TEAR"):
        call, fraction = os.environ["TEAR"].split(":")
        real, writes = checkpoint._append, []
        def tearing(path, data):
            writes.append(1)
            if len(writes) == int(call):
                real(path, data[:int(len(data) * float(fraction))])
                os.kill(os.getpid(), signal.SIGKILL)
            real(path, data)
        checkpoint._append = tearing
    print("ready", flush=True)
    report = run_agent(AgentConfig(), checkpoint=sys.argv[1], workdir=sys.argv[2])
    print(report.status, flush=True)
""")
# A fake key shaped like a real one, built here so no key-shaped string sits in the repository.
FAKE_KEY = "AIza" + "FAKE-secret-key-0123456789abcdefghijk"


def journey(records) -> list:
    """What must not differ between an interrupted and an uninterrupted run: not timings, nor
    token counts (pytest prints its folder, which differs)."""

    def untimed(text):
        return re.sub(r" in [0-9.]+s", " in <time>", text or "")

    return [
        (r.turn, r.tool, r.args, untimed(r.result), untimed(r.verdict), r.edited, r.compacted)
        for r in records
    ]


def seqs(path) -> list:
    return [json.loads(line)["seq"] for line in Path(path).read_bytes().splitlines()]


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """An uninterrupted run, its checkpoint's lines and the files it left."""
    folder = tmp_path_factory.mktemp("reference")
    report = run_agent(AgentConfig(), checkpoint=folder / "run.jsonl", workdir=folder / "work")
    assert report.status == "finished" and report.last_verdict.startswith("6 passed")
    files = {
        p.relative_to(folder / "work"): p.read_bytes() for p in (folder / "work").rglob("*.py")
    }
    return (
        journey(report.turns),
        (folder / "run.jsonl").read_bytes().splitlines(keepends=True),
        files,
    )


def start(path, workdir, tear=None):
    env = {**os.environ, "WORKBOOK_OFFLINE": "1", "GEMINI_API_KEY": FAKE_KEY}
    if tear:
        env["TEAR"] = tear
    proc = subprocess.Popen(
        [sys.executable, "-W", "ignore", "-c", RUNNER, str(path), str(workdir)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert proc.stdout.readline() == "ready\n", proc.stderr.read()
    return proc


def test_a_run_killed_at_random_points_ends_as_an_uninterrupted_run(tmp_path, reference):
    expected, _, files = reference
    path, workdir, rng = tmp_path / "run.jsonl", tmp_path / "work", random.Random(12)
    kills = 0
    for attempt in range(40):
        # the first four always tear a write, so the run is cut at least 4 times
        if attempt % 2 or attempt < 4:
            # inside a write: a random write, cut at a random byte (0: before it, ~1: all but the
            # newline)
            proc = start(path, workdir, tear=f"{rng.randint(2, 4)}:{rng.random():.3f}")
        else:  # anywhere: between turns, inside a tool, during the start-up of the run
            proc = start(path, workdir)
            try:
                proc.wait(timeout=rng.uniform(0.1, 0.8))
            except subprocess.TimeoutExpired:
                proc.send_signal(signal.SIGKILL)
        out, err = proc.communicate()
        if proc.returncode == 0:
            assert out.strip() == "finished", err
            break
        kills += 1
        assert proc.returncode == -signal.SIGKILL, err
        with warnings.catch_warnings():
            # a torn tail is expected here; its warning is tested below
            warnings.simplefilter("ignore")
            # killed before the first write
            done = journey(load_checkpoint(path).records) if path.exists() else []
        assert done == expected[: len(done)], (
            f"after kill {kills}: turns lost, repeated or different"
        )
    assert kills >= 4, "the seeded kills should interrupt the run several times"
    assert journey(load_checkpoint(path).records) == expected and seqs(path) == list(
        range(len(expected) + 1)
    )
    assert {p.relative_to(workdir): p.read_bytes() for p in workdir.rglob("*.py")} == files
    assert FAKE_KEY not in path.read_text() and "secret" not in path.read_text().lower()


# --- torn tails: dropped with a warning, whatever byte the kill stopped at
# ----------------------------


def test_a_last_line_torn_at_any_byte_is_dropped_and_the_run_ends_the_same(tmp_path, reference):
    expected, lines, _ = reference
    path, body, last = tmp_path / "run.jsonl", b"".join(lines[:-1]), lines[-1]
    for cut in range(1, len(last) - 1):
        path.write_bytes(body + last[:cut])
        with pytest.warns(UserWarning, match="incomplete"):
            assert journey(load_checkpoint(path).records) == expected[:-1]
    with pytest.warns(UserWarning, match="incomplete"):
        report = run_agent(AgentConfig(), checkpoint=path)
    assert journey(report.turns) == expected and seqs(path) == list(range(len(expected) + 1))


def test_a_torn_multibyte_character_is_a_torn_line_not_a_crash(tmp_path):
    path = tmp_path / "run.jsonl"
    start_checkpoint(path, "Réparer les tests ✓")
    good = path.read_bytes()
    reply = types.Content(role="model", parts=[types.Part.from_text(text="Déjà réparé ✓ — fini")])
    append_turn(path, [reply], TurnRecord(1, None, result="Déjà ✓"))
    line = path.read_bytes()[len(good) :]
    for cut in range(1, len(line) - 1):
        path.write_bytes(good + line[:cut])
        with pytest.warns(UserWarning, match="incomplete"):
            assert load_checkpoint(path).records == []


@pytest.mark.parametrize("content", [b"", b'{"seq": 0, "kind": "sta'])
def test_an_empty_file_or_a_torn_first_line_starts_the_run_afresh(tmp_path, reference, content):
    path = tmp_path / "run.jsonl"
    path.write_bytes(content)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        report = run_agent(AgentConfig(), checkpoint=path)
    torn = [w for w in caught if "incomplete" in str(w.message)]
    assert journey(report.turns) == reference[0] and len(torn) == (1 if content else 0)


def test_a_finished_run_says_so_and_runs_nothing(tmp_path, reference):
    path = tmp_path / "run.jsonl"
    path.write_bytes(b"".join(reference[1]))
    with pytest.warns(UserWarning, match="finished run.*nothing was run"):
        report = run_agent(AgentConfig(), checkpoint=path)
    assert report.status == "finished" and path.read_bytes() == b"".join(reference[1])


def test_a_resumed_run_can_reuse_the_workdir_of_the_run_it_resumes(tmp_path, reference):
    path, workdir = tmp_path / "run.jsonl", tmp_path / "work"
    # turn 8 edited amounts.py
    run_agent(AgentConfig(max_turns=9), checkpoint=path, workdir=workdir)
    report = run_agent(AgentConfig(), checkpoint=path, workdir=workdir)
    assert journey(report.turns) == reference[0]
    assert "ROUND_HALF_UP" in (workdir / "invoicing" / "amounts.py").read_text()


def test_a_resume_into_the_same_workdir_keeps_every_file_it_did_not_create(tmp_path, reference):
    path, workdir, outside = tmp_path / "run.jsonl", tmp_path / "work", tmp_path / "outside.txt"
    run_agent(AgentConfig(max_turns=9), checkpoint=path, workdir=workdir)
    mine = {"notes.txt": "mine", "data/table.csv": "a,b", "invoicing/scratch.txt": "draft"}
    for name, text in mine.items():
        (workdir / name).parent.mkdir(exist_ok=True)
        (workdir / name).write_text(text)
    outside.write_text("outside")
    (workdir / "README.md").unlink()
    # a link where a task file was: dropped, not followed
    (workdir / "README.md").symlink_to(outside)
    # a hard-linked copy keeps its text
    os.link(workdir / "invoicing" / "amounts.py", tmp_path / "linked.py")
    linked = (tmp_path / "linked.py").read_text()
    with pytest.warns(
        UserWarning,
        match=r"keeps 3 entries that are not the task's: data, invoicing/scratch.txt, "
        r"notes.txt",
    ):
        report = run_agent(AgentConfig(), checkpoint=path, workdir=workdir)
    assert journey(report.turns) == reference[0]
    assert {name: (workdir / name).read_text() for name in mine} == mine
    assert outside.read_text() == "outside" and (tmp_path / "linked.py").read_text() == linked
    assert (
        not (workdir / "README.md").is_symlink()
        and "ROUND_HALF_UP" in (workdir / "invoicing" / "amounts.py").read_text()
    )


def test_a_resume_that_would_replace_a_file_it_did_not_create_refuses_naming_it(tmp_path):
    path, workdir = tmp_path / "run.jsonl", tmp_path / "work"
    run_agent(AgentConfig(max_turns=3), checkpoint=path, workdir=workdir)
    shutil.rmtree(workdir / "tests")
    (workdir / "tests").write_text("my own file, named like the task's folder")
    (workdir / "notes.txt").write_text("mine")
    before = path.read_bytes()
    with pytest.raises(ValueError, match=r"tests \(should be a folder\).*nothing was changed"):
        run_agent(AgentConfig(), checkpoint=path, workdir=workdir)
    assert (workdir / "tests").read_text().startswith("my own") and (
        workdir / "notes.txt"
    ).read_text() == "mine"
    assert path.read_bytes() == before


def test_a_fresh_run_still_refuses_a_folder_that_holds_files(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(ValueError, match="empty folder"):
        run_agent(AgentConfig(), checkpoint=tmp_path / "run.jsonl", workdir=tmp_path)
    assert (tmp_path / "notes.txt").read_text() == "mine"


# --- damage: one clear message naming the file, the line and what to do; nothing lost
# ----------------


def resign(lines: list) -> list:
    """The lines with every checksum recomputed: damage a student (or a tool) hid on purpose."""
    signed, previous = [], ""
    for raw in lines:
        entry = json.loads(raw)
        body = {k: v for k, v in entry.items() if k != "sum"}
        previous = checksum(previous, body)
        signed.append((json.dumps(dict(body, sum=previous), ensure_ascii=False) + "\n").encode())
    return signed


def edit(lines, index, change):
    entry = json.loads(lines[index])
    change(entry)
    return lines[:index] + [(json.dumps(entry) + "\n").encode()] + lines[index + 1 :]


def first_edit_line(lines) -> int:
    return next(i for i, raw in enumerate(lines) if b'"edit_file"' in raw and b'"Edited' in raw)


# Fields edited by hand with every checksum recomputed: (line index, the edit, what the message must
# say).
RE_SIGNED = {
    "record turn 'two'": (
        2,
        lambda e: e["record"].update(turn="two"),
        "TurnRecord.turn must be a whole number",
    ),
    "line turn 'two'": (2, lambda e: e.update(turn="two"), "turn must be a whole number"),
    "edited null": (
        2,
        lambda e: e["record"].update(edited=None),
        "TurnRecord.edited must be a list of strings",
    ),
    "edited numbers": (
        2,
        lambda e: e["record"].update(edited=[1]),
        "TurnRecord.edited[0] must be a string",
    ),
    "seconds nan": (
        2,
        lambda e: e["record"].update(seconds=float("nan")),
        "TurnRecord.seconds must be a finite number",
    ),
    "seconds text": (
        2,
        lambda e: e["record"].update(seconds="1s"),
        "TurnRecord.seconds must be a number",
    ),
    "negative tokens": (
        2,
        lambda e: e["record"]["usage"].update(prompt_token_count=-5),
        "TurnRecord.usage.prompt_token_count must be at least 0",
    ),
    "emptied history": (2, lambda e: e.update(history=[]), "history must be a non-empty list"),
    "emptied contents": (2, lambda e: e.update(contents=[]), "contents must be a non-empty list"),
    "unknown role": (
        2,
        lambda e: e["contents"][0].update(role="system"),
        "contents[0] must be a message with role",
    ),
    "record turn of another line": (
        2,
        lambda e: e["record"].update(turn=5),
        "TurnRecord.turn must be 2",
    ),
    "unknown field": (2, lambda e: e.update(note="hi"), "unknown fields ['note']"),
    "version 99": (
        0,
        lambda e: e.update(version=99),
        "format version 99; this workbook reads version(s) 1",
    ),
    "version text": (0, lambda e: e.update(version="1"), "format version '1'"),
    "empty task": (0, lambda e: e.update(task=" "), "task must not be empty"),
    "no task": (0, lambda e: e.update(task=None), "task must be a string"),
}


def damaged_files(lines):
    """(name, file bytes, the line the message must name) for each kind of damage."""

    def without(key):
        return lambda e: e.pop(key)

    def spoil_edit(e):
        for c in e["contents"]:
            for p in c["parts"]:
                if "function_call" in p:
                    p["function_call"]["args"].update(old="text that is not there")

    k = first_edit_line(lines)
    cases = {
        "deleted line": (lines[:3] + lines[4:], 4),
        "duplicated line": (lines[:4] + lines[3:], 5),
        "reordered lines": (lines[:3] + [lines[4], lines[3]] + lines[5:], 4),
        "edited text": (
            [*lines[:5], lines[5].replace(b"read_file", b"read_fils", 1), *lines[6:]],
            6,
        ),
        "wrong checksum": (edit(lines, 2, lambda e: e.update(sum="0" * 64)), 3),
        "no checksum": (edit(lines, 2, without("sum")), 3),
        "not JSON": (lines[:2] + [b"{not json\n"] + lines[2:], 3),
        "not UTF-8": (lines[:2] + [lines[2][:40] + b"\xff\xfe" + lines[2][40:]] + lines[3:], 3),
        "empty first line": ([b"\n"] + lines, 1),
        "bad first line": ([b"garbage\n"] + lines[1:], 1),
        "first line not a task": (resign(lines[1:]), 1),
        "from another file": (
            lines[:3] + resign([lines[0].replace(b"fail", b"FAIL")] + lines[1:])[3:],
            4,
        ),
        "missing key, re-signed": (resign(edit(lines, 2, without("contents"))), 3),
        "wrong type, re-signed": (
            resign(edit(lines, 2, lambda e: e.update(contents="model text"))),
            3,
        ),
        "invalid content, re-signed": (
            resign(edit(lines, 2, lambda e: e["contents"][0].update(role=[1]))),
            3,
        ),
        "bad record, re-signed": (
            resign(edit(lines, 2, lambda e: e["record"].update(colour="red"))),
            3,
        ),
        "edit that fails on replay, re-signed": (resign(edit(lines, k, spoil_edit)), k + 1),
    } | {
        name: (resign(edit(lines, index, change)), index + 1)
        for name, (index, change, _) in RE_SIGNED.items()
    }
    return [(name, b"".join(content), line) for name, (content, line) in cases.items()]


def test_every_damage_stops_the_resume_with_one_clear_message(tmp_path, reference):
    for name, content, line in damaged_files(reference[1]):
        path = tmp_path / f"{name.replace(' ', '_').replace(',', '')}.jsonl"
        path.write_bytes(content)
        with pytest.raises(CheckpointDamaged) as caught:
            run_agent(AgentConfig(), checkpoint=path)
        message = str(caught.value)
        assert f"{path}, line {line}:" in message, f"{name}: {message}"
        assert "on_damage='restart'" in message and (
            "on_damage='resume'" in message or line == 1
        ), name
        assert path.read_bytes() == content, f"{name}: the damaged file must be left as it was"


@pytest.mark.parametrize("name", sorted(RE_SIGNED))
def test_a_re_signed_field_of_the_wrong_type_is_refused_naming_file_line_and_field(
    tmp_path, reference, name
):
    index, change, said = RE_SIGNED[name]
    path = tmp_path / "run.jsonl"
    path.write_bytes(b"".join(resign(edit(reference[1], index, change))))
    with pytest.raises(CheckpointDamaged) as caught:
        load_checkpoint(path)
    assert str(caught.value).startswith(f"{path}, line {index + 1}: ") and said in str(
        caught.value
    ), str(caught.value)


def test_a_checkpoint_written_before_the_version_field_reads_as_version_1(tmp_path, reference):
    assert json.loads(reference[1][0])["version"] == 1
    path = tmp_path / "run.jsonl"
    old = resign(edit(reference[1][:6], 0, lambda e: e.pop("version")))
    path.write_bytes(b"".join(old))
    report = run_agent(AgentConfig(), checkpoint=path)
    assert journey(report.turns) == reference[0]


@pytest.mark.parametrize(
    "name", ["deleted line", "edited text", "edit that fails on replay, re-signed"]
)
def test_resume_from_the_last_good_turn_keeps_a_backup_and_ends_the_same(tmp_path, reference, name):
    content = next(c for n, c, _ in damaged_files(reference[1]) if n == name)
    path = tmp_path / "run.jsonl"
    path.write_bytes(content)
    with pytest.warns(
        UserWarning, match="old file is kept as .*run.jsonl.damaged; resuming after turn"
    ):
        report = run_agent(AgentConfig(), checkpoint=path, on_damage="resume")
    assert journey(report.turns) == reference[0] and seqs(path) == list(
        range(len(reference[0]) + 1)
    )
    assert (tmp_path / "run.jsonl.damaged").read_bytes() == content


def test_restart_starts_afresh_and_keeps_the_old_file(tmp_path, reference):
    path = tmp_path / "run.jsonl"
    for attempt in range(2):  # a second restart must not overwrite the first backup
        path.write_bytes(b"\n" + b"".join(reference[1]))
        with pytest.warns(UserWarning, match="starting afresh"):
            report = run_agent(AgentConfig(), checkpoint=path, on_damage="restart")
        assert journey(report.turns) == reference[0]
    assert (tmp_path / "run.jsonl.damaged").read_bytes() == (
        tmp_path / "run.jsonl.damaged-1"
    ).read_bytes()
    with pytest.raises(ValueError, match="on_damage must be one of"):
        run_agent(AgentConfig(), checkpoint=path, on_damage="ignore")


def test_a_checkpoint_of_another_task_is_refused(tmp_path, reference):
    path = tmp_path / "run.jsonl"
    path.write_bytes(b"".join(reference[1]))
    with pytest.raises(ValueError, match="another task"):
        run_agent(AgentConfig(), checkpoint=path, task="Write a poem.")


def test_turns_are_written_once_and_in_order(tmp_path):
    path = tmp_path / "run.jsonl"
    start_checkpoint(path, "Fix the tests.")
    reply = types.Content(role="model", parts=[types.Part.from_text(text="Done.")])
    append_turn(path, [reply], TurnRecord(1, None))
    for turn in (1, 3):
        with pytest.raises(ValueError, match="next turn is 2"):
            append_turn(path, [reply], TurnRecord(turn, None))
    with pytest.raises(ValueError, match="already exists"):
        start_checkpoint(path, "Fix the tests.")


def test_a_compacted_history_is_restored_from_the_checkpoint(tmp_path):
    path = tmp_path / "run.jsonl"
    report = run_agent(AgentConfig(context_budget=5000), checkpoint=path)
    resumed = load_checkpoint(path)
    assert report.compactions and [c.model_dump() for c in resumed.history] == [
        c.model_dump() for c in report.history
    ]

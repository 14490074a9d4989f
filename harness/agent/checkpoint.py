"""Checkpoints: a journal of one JSON line per turn, synced to disk, so a killed run resumes where
it stopped.

Line 1 names the task and the format version; each later line holds the contents one turn added (SDK
JSON), the turn's record and, after a compaction, the whole new history. Every line carries `seq` (0
for the task line, then the turn number) and `sum`, a SHA-256 over the previous line's sum and this
line's body: a torn, edited, deleted, duplicated, reordered or foreign line breaks the chain at that
line. A line re-signed after editing is still checked field by field
(harness.agent.checkpoint_lines). Replaying the lines rebuilds the history and the report exactly;
replaying the edits rebuilds the workspace.

>>> import tempfile, pathlib
>>> from google.genai import types
>>> path = pathlib.Path(tempfile.mkdtemp()) / "run.jsonl"
>>> start_checkpoint(path, "Fix the tests.")
>>> reply = types.Content(role="model", parts=[types.Part.from_text(text="Done.")])
>>> append_turn(path, [reply], TurnRecord(1, None, result="Done."))
>>> resumed = load_checkpoint(path)
>>> [c.role for c in resumed.history], [r.turn for r in resumed.records]
(['user', 'model'], [1])

A kill can only tear the last line (it has no final newline yet): that line is dropped with a
warning and the turn runs again. Any other damage stops the resume with a `CheckpointDamaged`
naming the file and the line; `open_checkpoint(..., on_damage="resume" | "restart")` then keeps
the good turns or starts afresh, always keeping the old file as a backup first.

NOTE: only contents and token counts are written: the client, its key and the environment never
are; tool outputs reach the history with key-shaped strings already redacted (harness.tools).
"""

import json
import os
import shutil
import warnings
from dataclasses import dataclass
from pathlib import Path

from google.genai import types

from harness.agent.checkpoint_lines import (
    VERSION,
    checksum,
    start_line_task,
    turn_line,
    verified_entry,
)
from harness.agent.report import TurnRecord
from harness.context import as_content
from harness.formats import CallMatcher, is_error_output
from harness.plumbing.arguments import checked, require_non_empty_text, require_path, shown

ON_DAMAGE = ("stop", "resume", "restart")  # what open_checkpoint does with a damaged file


def require_on_damage(name: str, on_damage) -> None:
    """One of ON_DAMAGE: what to do with a damaged checkpoint."""
    if on_damage not in ON_DAMAGE:
        raise ValueError(f"{name} must be one of {ON_DAMAGE}, got {shown(on_damage)}.")


class CheckpointDamaged(ValueError):
    """A checkpoint line that cannot be trusted: the file, the line, and how many turns before it
    are good."""

    def __init__(self, path, line: int, problem: str, good_turns: int, good_bytes: int):
        self.path, self.line, self.good_turns, self.good_bytes = (
            Path(path),
            line,
            good_turns,
            good_bytes,
        )
        keep = (
            f"The {good_turns} turn(s) before that line are intact: to resume after turn"
            f" {good_turns}, call run_agent again with on_damage='resume'; to start afresh, with"
            " on_damage='restart'"
            if line > 1
            else "To start afresh, call run_agent again with on_damage='restart' (or 'resume')"
        )
        super().__init__(
            f"{path}, line {line}: {problem}. Nothing was run. {keep}; "
            "either way the old file is first copied to a backup next to it."
        )


def _append(path: Path, data: bytes) -> None:
    """Append bytes and force them to disk: a kill right after loses nothing written before."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    finally:
        os.close(fd)


def _fsync_folder(folder: Path) -> None:
    """Make a new file's name durable: without it a crash can keep the data but lose the file."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _last_sum(path: Path) -> tuple[int, str]:
    """(seq, sum) of the last complete line, which the next line chains on."""
    last = path.read_bytes().rstrip(b"\n").rsplit(b"\n", 1)[-1]
    entry = json.loads(last)
    return entry["seq"], entry["sum"]


def _write(path: Path, body: dict, previous: str) -> None:
    line = dict(body, sum=checksum(previous, body))
    try:
        text = json.dumps(line, ensure_ascii=False)
        data = (text + "\n").encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: \u escapes keep the line valid UTF-8
        data = (json.dumps(line) + "\n").encode("ascii")
    _append(path, data)


def _json(contents) -> list:
    return [c.model_dump(mode="json", exclude_none=True) for c in contents]


@checked(path=require_path, task=require_non_empty_text)
def start_checkpoint(path: str | os.PathLike, task: str) -> None:
    """Begin a checkpoint file for a run of `task` (the file must not exist yet, or be empty)."""
    path = Path(path)
    if path.exists() and path.stat().st_size:
        raise ValueError(
            f"{path} already exists; resume from it with run_agent(checkpoint=...) or pick a new"
            " name."
        )
    if not path.parent.is_dir():
        raise ValueError(
            f"start_checkpoint: the folder {path.parent} does not exist; create it or pick another"
            " path."
        )
    _write(path, {"seq": 0, "kind": "start", "version": VERSION, "task": task}, "")
    _fsync_folder(path.parent)


@checked(path=require_path)
def append_turn(
    path: str | os.PathLike,
    contents: list[types.Content],
    record: TurnRecord,
    history: list[types.Content] | None = None,
) -> None:
    """Record one finished turn: its new contents, its record, and the history if a compaction
    rewrote it."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(
            f"append_turn: path {path} is not a checkpoint; begin one with start_checkpoint."
        )
    seq, previous = _last_sum(path)
    if record.turn != seq + 1:
        raise ValueError(
            f"append_turn: {path} ends at turn {seq}, so the next turn is {seq + 1}, "
            f"not {record.turn}; a turn is written once, in order."
        )
    body = {
        "seq": record.turn,
        "kind": "turn",
        "turn": record.turn,
        "contents": _json(contents),
        "record": record.to_json(),
    }
    if history is not None:
        body["history"] = _json(history)
    _write(path, body, previous)


@dataclass
class Resumed:
    """What a checkpoint holds: the task, the history to continue from, the turn records, the
    edits to replay."""

    task: str
    history: list
    records: list
    edits: list  # (line number, edit_file args) of each edit that succeeded, in order
    good_bytes: int  # length of the file's intact prefix (a torn tail, or damage, starts there)


def _successful_edits(contents: list) -> list[dict]:
    """The args of each edit_file call whose response is not an error, in order."""
    edits, calls = [], CallMatcher()
    for part in (p for c in contents for p in c.parts or []):
        if part.function_call:
            calls.called(part.function_call.name, part.function_call)
        elif part.function_response:
            call = calls.answered(part.function_response.name)
            output = str((part.function_response.response or {}).get("output", ""))
            if call is not None and call.name == "edit_file" and not is_error_output(output):
                edits.append(dict(call.args or {}))
    return edits


@checked(path=require_path)
def load_checkpoint(path: str | os.PathLike) -> Resumed:
    """Verify a checkpoint and rebuild task, history, records and edits (a torn last line is
    dropped).

    Raises CheckpointDamaged at the first damaged line. An empty file, or one whose only line is
    torn, holds no task yet: its `task` is "".
    """
    path = Path(path)
    if not path.is_file():
        raise ValueError(
            f"load_checkpoint: path {path} is not a file; pass the .jsonl path a run was given."
        )
    data = path.read_bytes()
    *complete, tail = data.split(b"\n")
    if tail:
        warnings.warn(
            f"{path}: the last line is incomplete (the run was killed while writing it); it is"
            f" dropped and the run continues after the last complete line ({len(complete)}).",
            stacklevel=2,
        )
    resumed, previous = Resumed("", [], [], [], 0), ""
    for number, raw in enumerate(complete, 1):
        try:
            body, previous = verified_entry(raw, number - 1, previous)
            if number == 1:
                resumed.task = start_line_task(body)
                resumed.history = [as_content("user", resumed.task)]
            else:
                contents, record, history = turn_line(body, number - 1)
                resumed.history = history if history is not None else resumed.history + contents
                resumed.records.append(record)
                resumed.edits += [(number, edit) for edit in _successful_edits(contents)]
        # a re-signed line can hold anything: name the file and line
        except (
            TypeError,
            ValueError,
        ) as error:
            raise CheckpointDamaged(
                path, number, str(error), len(resumed.records), resumed.good_bytes
            ) from None
        resumed.good_bytes += len(raw) + 1
    return resumed


def _cut(path: Path, size: int) -> None:
    """Shorten the file to `size` bytes, durably: the next line must start on a clean line."""
    fd = os.open(path, os.O_WRONLY)
    try:
        os.ftruncate(fd, size)
        os.fsync(fd)
    finally:
        os.close(fd)


def _backup(path: Path) -> Path:
    """Copy the file to the first free `<name>.damaged[-N]` beside it and return that path."""
    backup, number = path.with_name(path.name + ".damaged"), 1
    while backup.exists():
        backup, number = path.with_name(f"{path.name}.damaged-{number}"), number + 1
    shutil.copy2(path, backup)
    _fsync_folder(path.parent)
    return backup


@checked(path=require_path, line=(1, None))
def damaged_line(path: str | os.PathLike, line: int, problem: str) -> CheckpointDamaged:
    """The damage report for `line` of a checkpoint that verified but cannot be used (e.g. its
    edit fails)."""
    lines = Path(path).read_bytes().split(b"\n")[: line - 1]
    return CheckpointDamaged(
        path, line, problem, max(line - 2, 0), sum(len(raw) + 1 for raw in lines)
    )


@checked(on_damage=require_on_damage)
def recover(damage: CheckpointDamaged, on_damage: str) -> None:
    """Act on a damaged checkpoint: raise it ("stop"), keep its intact lines ("resume") or empty it
    ("restart"), the last two after copying the old file to a backup."""
    if on_damage == "stop":
        raise damage
    backup, keep = _backup(damage.path), damage.good_bytes if on_damage == "resume" else 0
    _cut(damage.path, keep)
    kept = f"resuming after turn {damage.good_turns}" if keep else "starting afresh"
    warnings.warn(
        f"{damage}\n-> on_damage={on_damage!r}: the old file is kept as {backup}; {kept}.",
        stacklevel=3,
    )


@checked(path=require_path, task=require_non_empty_text, on_damage=require_on_damage)
def open_checkpoint(path: str | os.PathLike, task: str, on_damage: str = "stop") -> Resumed:
    """The checkpoint at `path`, ready for the next turn: created for `task`, or verified with its
    torn tail cut.

    A damaged file is handled by `recover(damage, on_damage)`.
    """
    path = Path(path)
    if path.exists() and not path.is_file():
        raise ValueError(f"open_checkpoint: path {path} is a folder; pass a .jsonl file path.")
    resumed = None
    if path.exists():
        try:
            resumed = load_checkpoint.unchecked(path)
        except CheckpointDamaged as damage:
            recover.unchecked(damage, on_damage)
            resumed = load_checkpoint.unchecked(path)
    # new, empty, or only a torn first line: nothing to resume
    if resumed is None or not resumed.task:
        if path.exists():
            _cut(path, 0)
        start_checkpoint.unchecked(path, task)
        return load_checkpoint.unchecked(path)
    if resumed.task != task:
        raise ValueError(
            f"{path} records a run of another task ({resumed.task[:60]!r}...); "
            "pass that task, or a new checkpoint path for this one."
        )
    if resumed.good_bytes < path.stat().st_size:
        _cut(path, resumed.good_bytes)
    return resumed

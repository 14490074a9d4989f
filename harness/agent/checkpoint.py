"""Checkpoints: one JSON line per turn, flushed to disk, so a killed run resumes where it stopped.

The first line names the task; each turn line holds the contents the turn added (SDK JSON), the
turn's record and, after a compaction, the whole new history. Replaying the lines rebuilds the
history and the report exactly; replaying the successful edits rebuilds the workspace.

>>> import tempfile, pathlib
>>> from google.genai import types
>>> path = pathlib.Path(tempfile.mkdtemp()) / "run.jsonl"
>>> start_checkpoint(path, "Fix the tests.")
>>> reply = types.Content(role="model", parts=[types.Part.from_text(text="Done.")])
>>> append_turn(path, [reply], TurnRecord(1, None, result="Done."))
>>> resumed = load_checkpoint(path)
>>> [c.role for c in resumed.history], [r.turn for r in resumed.records]
(['user', 'model'], [1])

NOTE: only contents and token counts are written: the client, its key and the environment never are.
"""
import json
import os
import warnings
from dataclasses import dataclass
from pathlib import Path

from google.genai import types

from harness.agent.report import TurnRecord
from harness.context import as_content
from harness.formats import CallMatcher, is_error_output


def _write(path: Path, entry: dict) -> None:
    """Append one line and force it to disk: a kill right after loses nothing written before."""
    with open(path, "a", encoding="utf-8") as file:
        file.write(json.dumps(entry, ensure_ascii=False) + "\n")
        file.flush()
        os.fsync(file.fileno())


def _json(contents) -> list:
    return [c.model_dump(mode="json", exclude_none=True) for c in contents]


def start_checkpoint(path, task: str) -> None:
    """Begin a checkpoint file for a run of `task` (the file must not exist yet)."""
    path = Path(path)
    if path.exists():
        raise ValueError(f"{path} already exists; resume from it with run_agent(checkpoint=...) or pick a new name.")
    _write(path, {"kind": "start", "task": task})


def append_turn(path, contents, record: TurnRecord, history=None) -> None:
    """Record one finished turn: its new contents, its record, and the history if a compaction rewrote it."""
    entry = {"kind": "turn", "turn": record.turn, "contents": _json(contents), "record": record.to_json()}
    if history is not None:
        entry["history"] = _json(history)
    _write(path, entry)


@dataclass
class Resumed:
    """What a checkpoint holds: the task, the history to continue from, the turn records, the edits to replay."""
    task: str
    history: list
    records: list
    edits: list  # edit_file args that succeeded, in order


def _lines(path: Path) -> list[dict]:
    raw = path.read_text(encoding="utf-8").splitlines()
    entries = []
    for number, line in enumerate(raw, 1):
        try:
            entries.append(json.loads(line))
        except json.JSONDecodeError:
            if number < len(raw):
                raise ValueError(f"{path}, line {number}, is not valid JSON and is not the last line: "
                                 "the file is damaged, not just cut short. Start a new run.") from None
            warnings.warn(f"{path}: the last line is incomplete (the run was killed while writing it); "
                          "it is skipped and that turn will run again.", stacklevel=3)
    return entries


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


def load_checkpoint(path) -> Resumed:
    """Rebuild task, history, records and edits from a checkpoint file (a torn last line is skipped)."""
    entries = _lines(Path(path))
    if not entries or entries[0].get("kind") != "start":
        raise ValueError(f"{path} is not a checkpoint: its first line should record the task.")
    task = entries[0]["task"]
    history = [as_content("user", task)]
    records, edits = [], []
    for entry in entries[1:]:
        contents = [types.Content.model_validate(c) for c in entry["contents"]]
        history += contents
        if "history" in entry:
            history = [types.Content.model_validate(c) for c in entry["history"]]
        records.append(TurnRecord.from_json(entry["record"]))
        edits += _successful_edits(contents)
    return Resumed(task, history, records, edits)

"""What one checkpoint line must hold: its place in the checksum chain, the format version (on the
task line) and every field of a turn, checked by type. A line edited by hand with its checksum
recomputed still meets these checks, so nothing in it is trusted blindly.

Each check raises ValueError saying what is wrong with the line; `load_checkpoint` adds the file
and the line number (a CheckpointDamaged).

>>> start_line_task({"seq": 0, "kind": "start", "version": 99, "task": "Fix it."})
Traceback (most recent call last):
...
ValueError: it is a checkpoint of format version 99; this workbook reads version(s) 1: a newer workbook wrote it, or it was edited
"""  # noqa: E501

import hashlib
import json

import pydantic
from google.genai import types

from harness.agent.report import TurnRecord
from harness.plumbing.arguments import require_int, require_text, shown

VERSION = 1  # the format this module writes, named on the task line
# the formats it can read; a file without a version is version 1 (see start_line_task)
READS_VERSIONS = (1,)
ROLES = ("user", "model")  # the roles of a Gemini history
_START_FIELDS = {"seq", "kind", "version", "task"}
_TURN_FIELDS = {"seq", "kind", "turn", "contents", "record", "history"}


def _canonical(body: dict) -> bytes:
    # Lone surrogates (possible in model text) cannot be UTF-8 encoded; surrogatepass keeps them
    # hashable.
    return json.dumps(body, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode(
        "utf-8", "surrogatepass"
    )


def checksum(previous: str, body: dict) -> str:
    return hashlib.sha256(previous.encode("ascii") + _canonical(body)).hexdigest()


def verified_entry(raw: bytes, seq: int, previous: str) -> tuple[dict, str]:
    """The verified entry of one complete line and its sum; ValueError saying what is wrong."""
    if not raw.strip():
        raise ValueError("the line is empty")
    try:
        entry = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ValueError("the line is not UTF-8 text") from None
    except json.JSONDecodeError:
        raise ValueError("the line is not valid JSON") from None
    if (
        not isinstance(entry, dict)
        or not isinstance(entry.get("sum"), str)
        or not isinstance(entry.get("seq"), int)
        or isinstance(entry["seq"], bool)
    ):
        raise ValueError("the line has no sequence number or checksum (an older or foreign file?)")
    if entry["seq"] != seq:
        what = "repeated" if entry["seq"] < seq else "out of order, or lines before it are missing"
        raise ValueError(
            f"its sequence number is {entry['seq']} where {seq} was expected: a line is {what}"
        )
    body = {key: value for key, value in entry.items() if key != "sum"}
    if checksum(previous, body) != entry["sum"]:
        raise ValueError(
            "its checksum does not match: the line was edited, or belongs to another file"
        )
    return body, entry["sum"]


def _fields(body: dict, allowed: set, what: str) -> None:
    unknown = sorted(set(body) - allowed)
    if unknown:
        raise ValueError(f"{what} has unknown fields {unknown}; it may hold {sorted(allowed)}")


def start_line_task(body: dict) -> str:
    """The task of a verified first line, after checking its kind, fields and format version.

    A first line without `version` is read as version 1: files written before the field existed
    are exactly version 1 (same lines, same fields), so a student's earlier checkpoint still
    resumes, and every line of it is checked as strictly as a new one's."""
    if body.get("kind") != "start":
        raise ValueError("the first line should record the task (kind 'start')")
    _fields(body, _START_FIELDS, "the first line")
    version = body.get("version", 1)
    if isinstance(version, bool) or not isinstance(version, int) or version not in READS_VERSIONS:
        raise ValueError(
            f"it is a checkpoint of format version {version!r}; this workbook reads version(s) "
            f"{', '.join(map(str, READS_VERSIONS))}: a newer workbook wrote it, or it was edited"
        )
    return require_text("the task", body.get("task"), empty=False)


def _contents(name: str, value) -> list:
    """A non-empty list of history messages (role user or model, at least one part each)."""
    if not isinstance(value, list) or not value:
        raise ValueError(f"{name} must be a non-empty list of messages, got {shown(value)}")
    contents = []
    for index, item in enumerate(value):
        where = f"{name}[{index}]"
        if not isinstance(item, dict) or item.get("role") not in ROLES:
            raise ValueError(
                f"{where} must be a message with role 'user' or 'model', got {shown(item)}"
            )
        if not isinstance(item.get("parts"), list) or not item["parts"]:
            raise ValueError(
                f"{where} must have a non-empty list of parts, got {shown(item.get('parts'))}"
            )
        try:
            contents.append(types.Content.model_validate(item))
        except pydantic.ValidationError as error:
            raise ValueError(
                f"{where} is not a message: {' '.join(str(error).splitlines()[1:3])}"
            ) from None
    return contents


def turn_line(body: dict, seq: int):
    """(contents, record, history or None) of a verified turn line, every field checked by type;
    ValueError naming the first wrong field."""
    try:
        if body.get("kind") != "turn":
            raise ValueError(f"kind must be 'turn', got {shown(body.get('kind'))}")
        _fields(body, _TURN_FIELDS, "the line")
        if require_int("turn", body.get("turn"), 1) != seq:
            raise ValueError(f"turn must be {seq}, the line's sequence number, got {body['turn']}")
        contents = _contents("contents", body.get("contents"))
        history = _contents("history", body["history"]) if "history" in body else None
        if history is not None and history[0].role != "user":
            raise ValueError("history[0] must be the task, a user message")
        record = TurnRecord.from_json(body.get("record"))
        if record.turn != seq:
            raise ValueError(f"TurnRecord.turn must be {seq}, the line's turn, got {record.turn}")
        return contents, record, history
    except (TypeError, ValueError) as error:
        raise ValueError(
            f"it does not hold a valid turn: {str(error).splitlines()[0][:200]}"
        ) from None

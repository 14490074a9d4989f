"""Recorded sessions: one JSON line per model call, saved once, re-billed and re-graded for free.

(The HTTP traffic of a lesson, recorded for replay, is harness/plumbing/recording.py.)

The harness of the Towards AI tutor article saved a "bundle" per turn (the answer, every tool call,
token counts, timing) so that findings could be re-graded and re-billed later without spending
another dollar. This module does the same for the workbook's runs:

    >>> rec = Recording("demo", config={"strategy": "full history"})
    >>> _ = rec.add(Bundle(turn=1, usage={"promptTokenCount": 1200, "cachedContentTokenCount": 1024,
    ...                                    "candidatesTokenCount": 40}, tools=["search_course"]))
    >>> import tempfile; path = save(rec, Path(tempfile.mkdtemp()) / "demo.jsonl")
    >>> from harness.billing import bill, PRICES
    >>> round(bill(load(path).usages(), PRICES["gemini-2.5-flash"]), 6)
    0.000184

The file's first line describes the session (name, config); each next line is one bundle.
NOTE: nothing that looks like an API key is ever written: config entries whose name mentions a
key, secret or password are dropped, and any value equal to the key in use is refused.
"""

import json
import os
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path

from google.genai import types

from harness.plumbing.arguments import (
    require_fields,
    require_instance,
    require_list,
    require_path,
    require_text,
)
from harness.plumbing.keys import KEY_SHAPE, api_key

_SECRET_NAME = re.compile(r"api[_-]?key|secret|password|authorization|credential", re.I)


@dataclass
class Bundle:
    """One model call of a run: what was sent, what it cost in tokens, what happened around it."""

    turn: int  # the conversation turn this call belongs to (0 = the first)
    usage: dict  # usageMetadata as the REST API returns it (camelCase keys)
    kind: str = "turn"  # "turn" for the agent or tutor, "summary" for a summariser call
    tools: list[str] = field(default_factory=list)  # names of the tools the model called
    # events fired before this call: {"turn", "messages", "trigger"}
    compactions: list[dict] = field(default_factory=list)
    seconds: float = 0.0  # wall time of the call
    answer: str = ""  # the reply's text, kept so a run can be re-graded
    probe: dict | None = None  # for a probe turn: {"question", "key_points"}

    def __post_init__(self):
        # a bundle is re-billed and re-graded later: a wrong field is refused now
        require_fields(self)

    @property
    def prompt_tokens(self) -> int:
        return int(self.usage.get("promptTokenCount") or 0)

    @property
    def cached_tokens(self) -> int:
        return int(self.usage.get("cachedContentTokenCount") or 0)

    def usage_metadata(self) -> types.GenerateContentResponseUsageMetadata:
        return types.GenerateContentResponseUsageMetadata.model_validate(self.usage)


def usage_dict(usage: types.GenerateContentResponseUsageMetadata | dict | None) -> dict:
    """A UsageMetadata (or dict, or None) as the camelCase dict a bundle stores."""
    require_instance(
        "usage",
        usage,
        (type(None), dict, types.GenerateContentResponseUsageMetadata),
        "a response's usage_metadata, a dict or None",
    )
    if usage is None:
        return {}
    if isinstance(usage, dict):
        return dict(usage)
    return usage.model_dump(mode="json", by_alias=True, exclude_none=True)


@dataclass
class Recording:
    """A whole run: a name, the configuration that produced it, and its bundles in call order."""

    name: str
    config: dict = field(default_factory=dict)
    bundles: list[Bundle] = field(default_factory=list)

    def __post_init__(self):
        require_fields(self)

    def add(self, bundle: Bundle) -> Bundle:
        require_instance("bundle", bundle, Bundle, "a recording.Bundle")
        self.bundles.append(bundle)
        return bundle

    def usages(self, kind: str | None = None) -> list:
        """Usage records as `types.GenerateContentResponseUsageMetadata`, ready for
        `billing.bill`."""
        return [b.usage_metadata() for b in self.bundles if kind is None or b.kind == kind]

    def compaction_count(self) -> int:
        return sum(len(b.compactions) for b in self.bundles)

    def __repr__(self):
        return (
            f"Recording({self.name!r}, {len(self.bundles)} calls, "
            f"{sum(b.prompt_tokens for b in self.bundles):,} prompt tokens, "
            f"{self.compaction_count()} compaction(s))"
        )


def _safe_config(config: dict) -> dict:
    """`config` without secret-named entries; refuses values that are (or look like) an API key."""
    key = api_key()
    clean = {}
    for name, value in config.items():
        if _SECRET_NAME.search(str(name)):
            continue
        text = json.dumps(value, default=str)
        if KEY_SHAPE.search(text) or (key and key in text):
            raise ValueError(
                f"Config entry {name!r} holds an API key: remove it before saving the recording."
            )
        clean[name] = value
    return clean


def save(recording: Recording, path: str | os.PathLike) -> Path:
    """Write `recording` as JSONL (a header line, then one bundle per line); return the path."""
    require_instance("recording", recording, Recording, "a Recording")
    require_path("path", path)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [
        json.dumps(
            {"session": recording.name, "config": _safe_config(recording.config)}, default=str
        )
    ]
    lines += [json.dumps(asdict(bundle), ensure_ascii=False) for bundle in recording.bundles]
    text = "\n".join(lines) + "\n"
    if KEY_SHAPE.search(text):
        raise ValueError(
            "A bundle holds something shaped like an API key; it was not saved. "
            "Check the answers and tool outputs you record."
        )
    path.write_text(text, encoding="utf-8")
    return path


def load(path: str | os.PathLike) -> Recording:
    """The recording saved at `path` (see `save`)."""
    require_path("path", path)
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    if not lines or "session" not in json.loads(lines[0]):
        raise ValueError(
            f"{path} is not a recorded session: its first line should be the session header."
        )
    header = json.loads(lines[0])
    return Recording(
        header["session"],
        header.get("config", {}),
        [Bundle(**json.loads(line)) for line in lines[1:] if line.strip()],
    )


def save_all(recordings: list[Recording], folder: str | os.PathLike) -> list[Path]:
    """Save each recording as `folder/<name>.jsonl` (spaces and slashes become dashes)."""
    recordings = list(require_list("recordings", recordings, "Recordings"))
    for index, rec in enumerate(recordings):
        require_instance(f"recordings[{index}]", rec, Recording, "a Recording")
    require_path("folder", folder)
    return [
        save(rec, Path(folder) / (re.sub(r"[^\w.-]+", "-", rec.name) + ".jsonl"))
        for rec in recordings
    ]


def load_all(folder) -> list[Recording]:
    """Every recording in `folder`, sorted by file name."""
    require_instance("folder", folder, (str, Path), "a folder path")
    return [load(path) for path in sorted(Path(folder).glob("*.jsonl"))]


def from_run_report(report, name: str, config=None) -> Recording:
    """An agent `RunReport` as a Recording: one bundle per turn, plus one per compaction's summary
    call.

    A compaction happens after its turn, so its event goes on the summary call that made it.
    """
    require_text("name", name, empty=False)
    config = (
        config if isinstance(config, dict) else (vars(config).copy() if config is not None else {})
    )
    recording = Recording(name, config={**config, "status": report.status})
    for t in report.turns:
        recording.add(
            Bundle(
                t.turn,
                usage_dict(t.usage),
                tools=[t.tool] if t.tool else [],
                seconds=round(t.seconds, 4),
                answer="" if t.tool else t.result,
            )
        )
        if t.summary_usage is not None:
            recording.add(
                Bundle(
                    t.turn,
                    usage_dict(t.summary_usage),
                    kind="summary",
                    compactions=[{"turn": t.turn, "messages": t.compacted, "trigger": t.trigger}],
                )
            )
    return recording

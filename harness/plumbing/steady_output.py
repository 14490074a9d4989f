"""Tool output made independent of the run: the same work shows the model the same text on every
run.

A recorded lesson replays only if each request is byte for byte the one recorded, but a command's
output names the random temporary folder the agent works in and pytest's timings. So before the
model sees a tool's output, the workspace's own path becomes relative, pytest's per-run folders get
one name, and pytest's summary drops its duration (nothing the model could act on):

    >>> steady("rootdir: /tmp/work-x1y2\\n/tmp/work-x1y2/test_a.py F\\n==== 1 failed, 2 passed in 0.31s ====",
    ...        "/tmp/work-x1y2")
    'rootdir: .\\ntest_a.py F\\n==== 1 failed, 2 passed ===='
    >>> steady("2 passed in 12.07s (0:00:12)", "/w")
    '2 passed'
"""

import re
from pathlib import Path

from harness.plumbing.arguments import checked, require_path

_OUTCOME = r"(?:passed|failed|errors?|skipped|deselected|xfailed|xpassed|warnings?|no tests ran)"
# pytest's summary line; its "=" frame is padded to the line's length, so the frame is redrawn too.
_SUMMARY = re.compile(
    rf"^(=+ )?(.*\b{_OUTCOME}\b.*?) in \d+(?:\.\d+)?s(?: \(\d+:\d\d:\d\d\))?( =+)?$", re.M
)
_PYTEST_TMP = re.compile(r"/pytest-of-[^/\s]+/pytest-\d+/")  # tmp_path's per-run folders
_COMMAND_HOME = re.compile(r"workbook-command-[A-Za-z0-9_]+")  # each command's throwaway HOME


def _summary(match: re.Match) -> str:
    return f"==== {match.group(2)} ====" if match.group(1) else match.group(2)


@checked(root=require_path)
def steady(text: str, root: str | Path) -> str:
    """`text` with the workspace `root` made relative and pytest's per-run details made constant."""
    for form in [f for f in dict.fromkeys((str(root), str(Path(root).resolve()))) if len(f) > 1]:
        text = text.replace(form + "/", "").replace(form, ".")
    text = _PYTEST_TMP.sub("/pytest-of-user/pytest-N/", text)
    text = _COMMAND_HOME.sub("workbook-command-home", text)
    return _SUMMARY.sub(_summary, text)

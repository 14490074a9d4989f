"""Lesson 04: cap a tool output before the model sees it, keeping the end where verdicts live.

pytest, compilers and linters write their verdict last, so a cap keeps a head (40%) for the
context and a larger tail (60%) for the outcome, with a marker saying what was cut:

>>> print(truncate_output("a" * 8 + "b" * 8, max_chars=10, head_ratio=0.4))
aaaa
[... 6 characters omitted ...]
bbbbbb
>>> extract_verdict("collected 6 items\\n=== 1 failed, 5 passed in 0.02s ===")
'=== 1 failed, 5 passed in 0.02s ==='
"""

import re

from harness.formats import truncation_marker
from harness.plumbing.arguments import checked

# the cap of « Le budget de contexte »: a pytest summary fits whole, an 18,000-char log does not
TOOL_OUTPUT_MAX_CHARS = 4_000
HEAD_RATIO = 0.4  # the tail weighs more: the verdict is at the end

_VERDICT = re.compile(r"\d+ (passed|failed)")


@checked(max_chars=(1, 10**9), head_ratio=(0, 1))
def truncate_output(
    text: str, max_chars: int = TOOL_OUTPUT_MAX_CHARS, head_ratio: float = HEAD_RATIO
) -> str:
    """`text` if it fits in `max_chars`; else its head, a marker line, and its tail.

    The head is the first `int(max_chars * head_ratio)` characters and the tail the last
    `max_chars - head`; `head_ratio=1.0` keeps the head only (the seeds' failure mode).
    """
    if len(text) <= max_chars:
        return text
    head = int(max_chars * head_ratio)
    tail = max_chars - head
    kept_tail = text[-tail:] if tail else ""  # text[-0:] would be the whole text
    return f"{text[:head]}\n{truncation_marker(len(text) - max_chars)}\n{kept_tail}"


@checked
def extract_verdict(output: str) -> str | None:
    """The last line of `output` that reports tests (`N passed` or `N failed`), stripped; None if
    none."""
    lines = [line.strip() for line in output.splitlines() if _VERDICT.search(line)]
    return lines[-1] if lines else None

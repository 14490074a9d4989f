"""The Context Engineering Workbook's harness: the pieces the lessons build, in reference form.

Lessons import from here, so a mistake in one lesson never breaks the next one. Importing it changes
nothing of the interpreter (no module swapped, no collector paused): the start-up speed-ups of
harness/startup.py are loaded by pytest and by a lesson kernel's start, not by this package.
"""
import os

from harness.models import DEFAULT_MODEL

# The one place the model id is set: a row of harness/models.py. Override with WORKBOOK_MODEL.
MODEL = os.environ.get("WORKBOOK_MODEL", DEFAULT_MODEL)

__all__ = ["MODEL", "connect", "mode_line"]


def __getattr__(name: str):
    """`connect` and `mode_line`, imported on first use: the google-genai SDK they need takes 1-2 s
    to import, which a process that only reads `MODEL` (pytest, `harness check`) does not pay."""
    if name in ("connect", "mode_line"):
        from harness import client

        return getattr(client, name)
    raise AttributeError(f"module 'harness' has no attribute {name!r}")

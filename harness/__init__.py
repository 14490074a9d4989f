"""The Context Engineering Workbook's harness: the pieces the lessons build, in reference form.

Lessons import from here, so a mistake in one lesson never breaks the next one.
"""
import os

from harness.models import DEFAULT_MODEL
from harness.startup import defer_iri_checker

# The one place the model id is set: a row of harness/models.py. Override with WORKBOOK_MODEL.
MODEL = os.environ.get("WORKBOOK_MODEL", DEFAULT_MODEL)

defer_iri_checker()

__all__ = ["MODEL", "connect", "mode_line"]


def __getattr__(name: str):
    """`connect` and `mode_line`, imported on first use: the google-genai SDK they need takes 1-2 s
    to import, which a process that only reads `MODEL` (pytest, `harness check`) does not pay."""
    if name in ("connect", "mode_line"):
        from harness import client

        return getattr(client, name)
    raise AttributeError(f"module 'harness' has no attribute {name!r}")

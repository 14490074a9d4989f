"""The Context Engineering Workbook's harness: the pieces the lessons build, in reference form.

Lessons import from here, so a mistake in one lesson never breaks the next one.
"""
import os

# The one place the model id is set. Override with the WORKBOOK_MODEL environment variable.
MODEL = os.environ.get("WORKBOOK_MODEL", "gemini-2.5-flash")

from harness.client import connect, mode_line  # noqa: E402  (needs MODEL above)

__all__ = ["MODEL", "connect", "mode_line"]

"""The Context Engineering Workbook's harness: the pieces the lessons build, in reference form.

Lessons import from here, so a mistake in one lesson never breaks the next one.
"""
import os

from harness.models import DEFAULT_MODEL
from harness.startup import defer_iri_checker

# The one place the model id is set: a row of harness/models.py. Override with WORKBOOK_MODEL.
MODEL = os.environ.get("WORKBOOK_MODEL", DEFAULT_MODEL)

defer_iri_checker()

from harness.client import connect, mode_line  # noqa: E402  (needs MODEL above)

__all__ = ["MODEL", "connect", "mode_line"]

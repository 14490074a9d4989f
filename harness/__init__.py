"""The Context Engineering Workbook's harness: the pieces the lessons build, in reference form.

Lessons import from here, so a mistake in one lesson never breaks the next one. The modules at this
level are the course, in lesson order:

    usage (00) · history (01) · ordering (02) · context (03) · truncation, masking (04)
    transcript, compaction (05, 06) · billing (07) · probes (08) · budgets, triggers (09)
    partitioning, coordinator (10) · server_state (11) · retrieval (12)
    offload, corpus_shell, memory, library (13) · capstone (the last lesson)
    tools: the agent's workspace · tokens, models, formats: the counter and tables every layer shares

beside the packages `agent` (the loop the later lessons run), `checks`, `quizzes`, `widgets` (what a
lesson cell shows), `scenarios` (the tasks), `engine` (the glass box), `workbook` (build, check,
grade) and `plumbing` (client, keys, recording, jail: what the course runs on and does not teach).
Importing it changes nothing of the interpreter: the start-up speed-ups of plumbing/startup.py are
loaded by pytest and by a lesson kernel's start, not by this package.
"""

import os

from harness.models import DEFAULT_MODEL

# The one place the model id is set: a row of harness/models.py. Override with WORKBOOK_MODEL.
MODEL = os.environ.get("WORKBOOK_MODEL", DEFAULT_MODEL)

__all__ = ["MODEL", "connect", "is_offline", "mode_line", "start_cold"]
_CLIENT = ("connect", "is_offline", "mode_line", "start_cold")


def __getattr__(name: str):
    """The client's functions, imported on first use: the google-genai SDK they need takes 1-2 s to
    import, which a process that only reads `MODEL` (pytest, `harness check`) does not pay."""
    if name in _CLIENT:
        from harness.plumbing import client

        return getattr(client, name)
    raise AttributeError(f"module 'harness' has no attribute {name!r}")

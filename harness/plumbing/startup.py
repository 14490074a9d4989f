"""What the workbook's processes are spared: third-party work that costs seconds and serves nothing
here.

Loaded only where the workbook starts a process, never by `import harness`: a lesson kernel's start
(jupyter/ipython_kernel_config.py, copied into the venv by `make setup`, runs `prepare_kernel`) and
pytest (`-p harness.plumbing.startup` in pyproject's addopts, imported before nbval imports
nbformat). A kernel is spared one import (below) and most of the garbage collector's passes over the
large imports every lesson makes; pytest is spared the same import and nbval's eager formatting of
every kernel message (`defer_nbval_message_dumps`).

A plotly figure shown the usual way (a student's own `fig` at the end of a cell) goes through
plotly.io's renderers, which import nbformat, whose jsonschema imports its optional IRI checker
`rfc3987_syntax`, which compiles Earley parsers at import: 3.8 s of CPU for the first plotly
FigureWidget, 0.03 s for the next (measured here with time.process_time, 2026-12-01; known upstream:
python-jsonschema/jsonschema issue 1428, 2025-10-31). The panels' charts (harness/widgets/chart.py)
no longer import nbformat, but nbval and a student's figure still do. No lesson validates an IRI,
but a JSON schema with an "iri" format still must be checked, so the checker is deferred, not
removed: a stand-in takes its name and imports the real one at its first use.

>>> import jsonschema
>>> jsonschema.FormatChecker().conforms("http://example.com/ä", "iri")
True
"""

import gc
import importlib.util
import pprint
import sys
import types
from contextlib import contextmanager

from harness.plumbing.sdk_models import memoise_when_imported

IRI_CHECKER = "rfc3987_syntax"


def _is_valid_syntax(term: str, value: str) -> bool:
    """The real `rfc3987_syntax.is_valid_syntax`, imported (once) on the first call."""
    if isinstance(sys.modules.get(IRI_CHECKER), _Deferred):
        del sys.modules[IRI_CHECKER]
    from rfc3987_syntax import is_valid_syntax

    return is_valid_syntax(term, value)


class _Deferred(types.ModuleType):
    """Stands in for `rfc3987_syntax` with the one name jsonschema imports from it."""

    is_valid_syntax = staticmethod(_is_valid_syntax)


def defer_iri_checker() -> None:
    """Put the stand-in in place, unless the real checker is already imported or not installed."""
    spec = None if IRI_CHECKER in sys.modules else importlib.util.find_spec(IRI_CHECKER)
    if spec is not None:
        sys.modules[IRI_CHECKER] = stand_in = _Deferred(IRI_CHECKER)
        stand_in.__spec__ = spec  # so importlib.util.find_spec still answers for it


@contextmanager
def collector_paused():
    """Run an import with the cyclic garbage collector paused, then collect once and freeze what is
    left.

    google-genai's types and plotly's widgets build hundreds of thousands of objects as they import.
    Each time enough new objects pile up the collector runs, and its full passes walk everything
    imported so far: 0.35-0.58 s of a lesson kernel's CPU went to collections, 0.11-0.26 s with
    this pause (gc.callbacks in each solution notebook, measured here 2026-12-01; a kernel's memory
    after lessons 03 and 07 is the same within 1 MiB). Paused, the import ends with one collection
    of what it made, so no garbage is kept, then `gc.freeze()` leaves what was imported out of every
    later pass. Frozen objects are still freed when nothing refers to them; only a cycle among them
    would never be. Calls may nest.

    >>> before = gc.get_freeze_count()
    >>> with collector_paused():
    ...     made = [[] for _ in range(10)]
    >>> gc.isenabled(), gc.get_freeze_count() >= before + len(made)
    (True, True)
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.collect(0)  # while paused, every new object stays in the youngest generation
        gc.freeze()
        if enabled:
            gc.enable()


def prepare_kernel() -> None:
    """A lesson kernel's start: the IRI checker deferred, then the SDK's types, the widgets and the
    plotly every lesson imports, imported once with the collector paused (see collector_paused).
    The SDK's Interactions client, where a lesson imports it, makes each model once (sdk_models)."""
    defer_iri_checker()
    memoise_when_imported()
    with collector_paused():
        import ipywidgets  # noqa: F401
        import plotly.graph_objects  # noqa: F401
        import plotly.io  # noqa: F401
        from google.genai import types  # noqa: F401


class _FormattedWhenLogged:
    """What `pprint.pformat(value)` returns, computed only when a log record is printed."""

    def __init__(self, value):
        self.value = value

    def __str__(self) -> str:
        return pprint.pformat(self.value)


def defer_nbval_message_dumps() -> None:
    """nbval logs each kernel message at debug level, pretty-printed before the level is checked:
    `logger.debug("...%s", pformat(msg))` in `RunningKernel.get_message` (nbval 0.11). A panel's
    plotly messages are large, and that formatting was about a tenth of the CPU of the solution
    suite here (py-spy, 2026-12-01). Deferred, the text is built only if debug logging is on."""
    kernel = sys.modules.get("nbval.kernel")
    if kernel is not None and getattr(kernel, "pformat", None) is pprint.pformat:
        kernel.pformat = _FormattedWhenLogged


def pytest_configure(config) -> None:
    defer_nbval_message_dumps()


# Imported by pytest's `-p` before the installed plugins are: defer now, before nbval imports
# nbformat.
defer_iri_checker()
memoise_when_imported()

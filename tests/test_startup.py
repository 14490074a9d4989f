"""harness.startup: the IRI checker a lesson kernel would import for nothing is deferred, never lost;
large imports run with the garbage collector paused."""
import re
import subprocess
import sys

import nbformat
import pytest

from harness.workbook import SOLUTIONS

PROBE = """
import sys
import harness
import plotly.graph_objects as go
go.FigureWidget()
print(type(sys.modules["rfc3987_syntax"]).__name__)
import jsonschema
checker = jsonschema.FormatChecker()
print(checker.conforms("http://example.com/é", "iri"), checker.conforms("http:// spaced", "iri"))
print(type(sys.modules["rfc3987_syntax"]).__name__)
"""


def test_a_chart_does_not_import_the_iri_checker_and_an_iri_is_still_checked():
    run = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    before, verdicts, after = run.stdout.split("\n")[:3]
    assert before == "_Deferred", "a FigureWidget after `import harness` imported rfc3987_syntax (seconds of CPU)"
    assert verdicts == "True False", "with the checker deferred, jsonschema must still accept and reject IRIs"
    assert after == "module", "the first IRI check must import the real rfc3987_syntax"


def test_pytest_loads_the_stand_in_before_nbval_imports_nbformat():
    """pyproject's addopts name `-p harness.startup`; without it each pytest process and xdist worker
    compiles the IRI checker's parsers (3 s) as soon as nbval imports nbformat."""
    from harness.workbook import ROOT

    run = subprocess.run([sys.executable, "-X", "importtime", "-m", "pytest", "--collect-only", "-q", "--nbval-lax",
                          "-p", "no:randomly", "solutions/00_first_call.ipynb"], cwd=ROOT, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "nbformat" in run.stderr, "nbval no longer imports nbformat: this test checks nothing"
    assert " rfc3987_syntax\n" not in run.stderr, "pytest imported rfc3987_syntax: is `-p harness.startup` in addopts?"


def test_nbval_formats_a_kernel_message_only_when_debug_logging_prints_it(caplog):
    import logging
    import pprint

    import nbval.kernel

    assert nbval.kernel.pformat is not pprint.pformat, "pytest did not run harness.startup's pytest_configure"
    message = {"header": {"msg_type": "stream"}, "content": {"text": "x" * 200, "name": "stdout"}}
    deferred = nbval.kernel.pformat(message)
    assert str(deferred) == pprint.pformat(message), "when printed, the text must be pprint's own"
    with caplog.at_level(logging.DEBUG, logger=nbval.kernel.logger.name):
        nbval.kernel.logger.debug("Kernel message (%s):\n%s", "iopub", deferred)
    assert pprint.pformat(message) in caplog.text


def test_an_import_with_the_collector_paused_keeps_no_garbage_and_freezes_the_rest():
    import gc
    import weakref

    from harness.startup import collector_paused

    class Node:
        pass

    frozen_before = gc.get_freeze_count()
    with collector_paused():
        assert not gc.isenabled(), "the collector must be paused inside the block"
        cycle = Node()
        cycle.me = cycle
        garbage = weakref.ref(cycle)
        del cycle
        kept = [Node() for _ in range(1000)]
    assert gc.isenabled(), "the collector must run again after the block"
    assert garbage() is None, "a cycle dropped inside the block must be collected, not frozen"
    assert gc.get_freeze_count() >= frozen_before + len(kept), "what the block made must be frozen"


def test_the_collector_pause_nests_and_leaves_a_disabled_collector_disabled():
    import gc

    from harness.startup import collector_paused

    with collector_paused():
        with collector_paused():
            pass
        assert not gc.isenabled(), "an inner block turned the collector back on inside an outer one"
    gc.disable()
    try:
        with pytest.raises(ZeroDivisionError):
            with collector_paused():
                1 / 0
        assert not gc.isenabled(), "a collector the caller had disabled must stay disabled"
    finally:
        gc.enable()


SDK_PROBE = """
import gc
from harness import connect
import google.genai
print(gc.isenabled(), gc.get_freeze_count())
"""


def test_the_sdk_is_imported_with_the_collector_paused():
    """harness.client imports google-genai inside collector_paused: its objects end up frozen."""
    run = subprocess.run([sys.executable, "-c", SDK_PROBE], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    enabled, frozen = run.stdout.split()
    assert enabled == "True"
    assert int(frozen) > 10_000, f"only {frozen} objects frozen: the SDK was imported with the collector running"


@pytest.mark.parametrize("path", sorted(SOLUTIONS.glob("[0-9][0-9]_*.ipynb")), ids=lambda p: p.stem)
def test_each_lesson_imports_the_harness_before_the_sdk(path):
    """The first `from harness import ...` imports the SDK with the collector paused (harness.startup):
    a lesson that imports google.genai first pays the collector's passes over it (0.1-0.4 s a kernel)."""
    source = next(cell.source for cell in nbformat.read(path, as_version=4).cells if cell.cell_type == "code")
    lines = source.splitlines()
    harness = next(i for i, line in enumerate(lines) if line.startswith(("from harness", "import harness")))
    sdk = [i for i, line in enumerate(lines) if re.match(r"(from google(\.genai)? import|import google)", line)]
    assert all(i > harness for i in sdk), "the first cell imports google.genai before the harness"

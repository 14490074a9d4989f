"""harness.startup: the IRI checker a lesson kernel would import for nothing is deferred, never lost."""
import subprocess
import sys

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

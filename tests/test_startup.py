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

"""A pytest plugin that writes what nbval saw in every notebook cell to a JSON file.

Load it next to nbval; the workbook's runner then reads the file instead of parsing pytest's text:

    python -m pytest --nbval-lax -p harness.workbook.nbval_report --nbval-report=cells.json 03.ipynb

`cells.json` is a list with one record per code cell, in the order the cells ran:

    {"file": "/tmp/x/03.ipynb", "cell": 4, "source": "check(\\"3.1\\", build_context)",
     "outcome": "failed", "ename": "ExerciseFailed", "evalue": "Exercise 3.1: ...",
     "stdout": "", "timeout": false, "error": "...last lines of pytest's report..."}

and one `{"file": ..., "collect_error": "..."}` record for a notebook nbval could not even read.
"""
import json
from pathlib import Path

import pytest

ERROR_TAIL_LINES = 15  # enough for a traceback's last frames; a full report can run to pages


def pytest_addoption(parser):
    parser.addoption("--nbval-report", metavar="PATH", default=None,
                     help="write one JSON record per notebook cell run by nbval to PATH")


def pytest_configure(config):
    path = config.getoption("--nbval-report")
    if path:
        config.pluginmanager.register(CellRecorder(Path(path), config.rootpath), "nbval-report-recorder")


def _outputs_of(item) -> tuple[dict | None, str]:
    """The error output (ename/evalue) and the printed text of the cell nbval just ran."""
    error, printed = None, []
    for output in item.test_outputs or []:  # nbval keeps the outputs it received here
        if output.get("output_type") == "error":
            error = output
        elif output.get("output_type") == "stream":
            printed.append(output.get("text", ""))
    return error, "".join(printed)


class CellRecorder:
    """Collects one record per notebook cell (and per unreadable notebook); writes them at the end."""

    def __init__(self, path: Path, rootpath: Path):
        self.path, self.rootpath, self.records = path, rootpath, []

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item, call):
        outcome = yield
        report = outcome.get_result()
        if not hasattr(item, "cell"):  # not a notebook cell: some other test in the same run
            return
        # A cell is recorded once: after it ran, or at set-up when it never got to run.
        if report.when != "call" and not (report.when == "setup" and not report.passed):
            return
        error, stdout = _outputs_of(item)
        # After a cell times out nbval marks the next cells xfail, so a failure shows as "skipped".
        failed = report.failed or (report.skipped and hasattr(report, "wasxfail") and call.excinfo is not None)
        text = str(report.longrepr) if failed and report.longrepr else ""
        if failed and not text and call.excinfo is not None:
            text = item.repr_failure(call.excinfo)  # an xfailed cell keeps its reason only here
        self.records.append({
            "file": str(item.path),
            "cell": item.cell_num,
            "source": item.cell.source,
            "outcome": "failed" if failed else report.outcome,
            "ename": error.get("ename") if error else None,
            "evalue": error.get("evalue") if error else None,
            "stdout": stdout,
            "timeout": "Timeout of" in text,
            "error": "\n".join(str(text).splitlines()[-ERROR_TAIL_LINES:]),
        })

    def pytest_collectreport(self, report):
        if report.failed and report.nodeid.endswith(".ipynb"):
            self.records.append({"file": str(self.rootpath / report.nodeid), "collect_error": str(report.longrepr)})

    def pytest_sessionfinish(self):
        self.path.write_text(json.dumps(self.records, indent=1), encoding="utf-8")

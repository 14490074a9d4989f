"""harness.plumbing.startup: at a kernel's start the IRI checker a lesson would import for
nothing is deferred, never lost, and the large imports run with the garbage collector paused;
`import harness` itself changes nothing of the interpreter."""

import subprocess
import sys

import pytest

PROBE = """
import sys
from harness.plumbing.startup import prepare_kernel
prepare_kernel()  # what jupyter/ipython_kernel_config.py runs at a kernel's start
import harness
import plotly.graph_objects as go
from harness.widgets.chart import Chart
Chart(go.Figure(go.Bar(x=[1], y=[2])))  # a panel's chart
go.Figure(go.Bar(x=[1], y=[2]))._repr_mimebundle_({}, {})  # a student's own figure: imports nbformat
print("nbformat" in sys.modules, type(sys.modules["rfc3987_syntax"]).__name__)
import jsonschema
checker = jsonschema.FormatChecker()
print(checker.conforms("http://example.com/é", "iri"), checker.conforms("http:// spaced", "iri"))
print(type(sys.modules["rfc3987_syntax"]).__name__)
"""


def test_a_chart_does_not_import_the_iri_checker_and_an_iri_is_still_checked():
    run = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    before, verdicts, after = run.stdout.split("\n")[:3]
    assert before.startswith("True "), (
        "no figure imported nbformat (and its jsonschema): this test checks nothing"
    )
    assert before == "True _Deferred", (
        "a figure after the kernel's start imported rfc3987_syntax (seconds of CPU)"
    )
    assert verdicts == "True False", (
        "with the checker deferred, jsonschema must still accept and reject IRIs"
    )
    assert after == "module", "the first IRI check must import the real rfc3987_syntax"


def test_pytest_loads_the_stand_in_before_nbval_imports_nbformat():
    """pyproject's addopts name `-p harness.plumbing.startup`; without it each pytest process and
    xdist worker compiles the IRI checker's parsers (3 s) as soon as nbval imports nbformat."""
    from harness.workbook import ROOT

    run = subprocess.run(
        [
            sys.executable,
            "-X",
            "importtime",
            "-m",
            "pytest",
            "--collect-only",
            "-q",
            "--nbval-lax",
            "-p",
            "no:randomly",
            "solutions/00_first_call.ipynb",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "nbformat" in run.stderr, "nbval no longer imports nbformat: this test checks nothing"
    assert " rfc3987_syntax\n" not in run.stderr, (
        "pytest imported rfc3987_syntax: is `-p harness.plumbing.startup` in addopts?"
    )


def test_nbval_formats_a_kernel_message_only_when_debug_logging_prints_it(caplog):
    import logging
    import pprint

    import nbval.kernel

    assert nbval.kernel.pformat is not pprint.pformat, (
        "pytest did not run harness.plumbing.startup's pytest_configure"
    )
    message = {"header": {"msg_type": "stream"}, "content": {"text": "x" * 200, "name": "stdout"}}
    deferred = nbval.kernel.pformat(message)
    assert str(deferred) == pprint.pformat(message), "when printed, the text must be pprint's own"
    with caplog.at_level(logging.DEBUG, logger=nbval.kernel.logger.name):
        nbval.kernel.logger.debug("Kernel message (%s):\n%s", "iopub", deferred)
    assert pprint.pformat(message) in caplog.text


def test_an_import_with_the_collector_paused_keeps_no_garbage_and_freezes_the_rest():
    import gc
    import weakref

    from harness.plumbing.startup import collector_paused

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

    from harness.plumbing.startup import collector_paused

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


PLAIN_PROBE = """
import gc, sys
frozen = gc.get_freeze_count()
import harness, harness.widgets
from harness import connect
connect()
print(gc.isenabled(), gc.get_freeze_count() - frozen, "rfc3987_syntax" in sys.modules)
"""


def test_import_harness_leaves_the_interpreter_plain():
    """A student's `import harness` (and its client and widgets) freezes nothing and swaps no
    module."""
    run = subprocess.run(
        [sys.executable, "-c", PLAIN_PROBE], capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["True", "0", "False"]


def test_a_kernel_start_runs_prepare_kernel_and_it_freezes_the_large_imports():
    from harness.workbook import ROOT

    config = (ROOT / "jupyter" / "ipython_kernel_config.py").read_text()
    assert "prepare_kernel()" in config and "IPKernelApp.exec_lines" in config
    probe = (
        "import gc\nfrom harness.plumbing.startup import"
        " prepare_kernel\nprepare_kernel()\nprint(gc.get_freeze_count())"
    )
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert int(run.stdout) > 10_000, (
        f"only {run.stdout.strip()} objects frozen: the imports ran with the collector on"
    )


INTERACTIONS_PROBE = """
import os, sys
os.environ["WORKBOOK_OFFLINE"] = "1"
from harness.plumbing.sdk_models import SERIALIZERS
from harness.plumbing.startup import prepare_kernel
prepare_kernel()  # what jupyter/ipython_kernel_config.py runs at a kernel's start
from harness import MODEL, connect
client = connect()
print(SERIALIZERS in sys.modules)


def chat():
    first = client.interactions.create(model=MODEL, input="My dog is called Rex.")
    second = client.interactions.create(
        model=MODEL, input="What is my dog called?", previous_interaction_id=first.id
    )
    return repr(second.steps[-1].content[0].text), second.usage.total_input_tokens


client.interactions  # imports the Interactions client
serializers = sys.modules[SERIALIZERS]
memoised, calls = serializers.create_model, []
serializers.create_model = lambda *args, **kwargs: calls.append(args[0]) or memoised(*args, **kwargs)
print(chat(), len(calls), len(memoised.made))
serializers.create_model = memoised.__wrapped__  # pydantic's own
print(chat())
"""


def test_the_interactions_client_makes_each_model_once_and_answers_the_same():
    """The SDK's Interactions client builds a pydantic model class per request and per response;
    from the kernel's start each is made once (plumbing/sdk_models.py), and nothing is imported
    early for it."""
    run = subprocess.run(
        [sys.executable, "-c", INTERACTIONS_PROBE], capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    imported, memoised, plain = run.stdout.splitlines()
    assert imported == "False", (
        "the kernel's start imported the Interactions client: 0.6 s for lessons that never use it"
    )
    answer, asked, made = memoised.rsplit(" ", 2)
    assert int(asked) > int(made) > 0, (
        "the SDK no longer builds its models per call: the memo can go"
    )
    assert int(asked) == 2 * int(made), (
        "two calls of one kind must make each model once, then reuse it"
    )
    assert answer == plain, "the memoised models must read the interaction as pydantic's own"


def test_a_memoised_model_is_made_once_per_type_and_config():
    from pydantic import ConfigDict, create_model

    from harness.plumbing.sdk_models import _memoised

    create = _memoised(create_model)
    config = ConfigDict(populate_by_name=True)
    ints = create("Unmarshaller", body=(int, ...), __config__=config)
    assert create("Unmarshaller", body=(int, ...), __config__=config) is ints
    assert create("Unmarshaller", body=(str, ...), __config__=config) is not ints
    other = ConfigDict(populate_by_name=False)
    assert create("Unmarshaller", body=(int, ...), __config__=other) is not ints
    assert create("Unmarshaller", body=(int, ...), __config__=config)(body="7").body == 7

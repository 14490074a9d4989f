"""The cookbook benchmark's own rules (benchmarks/cookbook_counts.py, cookbook_triage.py), on
made-up cells.

The benchmark itself needs a clone of the cookbook and minutes; these check the rules that decide
what runs and how a cell is counted, so a rule that goes wrong moves a count for a reason a test
names. They sit beside the benchmark, outside `make test` (pyproject.toml's testpaths): the cookbook
is not the course. Run them by hand with the benchmark: `.venv/bin/python -m pytest
benchmarks/test_cookbook_counts.py`.
"""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import cookbook_counts as counts  # noqa: E402
from cookbook_triage import Cell, root_of, stale_input, whose_fault  # noqa: E402


@pytest.mark.parametrize(
    "line, kept",
    [
        (
            'MODEL_ID = "gemini-3.5-flash" # @param ["gemini-2.5-flash", "gemini-3.1-pro-preview"]',
            False,
        ),
        (
            (
                'MODEL_ID = "learnlm-2.0-flash-experimental" # @param'
                ' ["learnlm-2.0-flash-experimental"]'
            ),
            False,
        ),
        (
            (
                'MODEL_ID = "gemini-embedding-2" # @param ["gemini-embedding-001",'
                ' "gemini-embedding-2"]'
            ),
            True,
        ),
        ("LIVE_MODEL_ID = 'gemini-2.5-flash-native-audio-preview-09-2025'  # @param ['x']", True),
        ('PROMPT = "gemini-3.5-flash" # @param {type: "string"}', True),  # not a model dropdown
    ],
)
def test_only_text_model_dropdowns_move_to_the_live_model(line, kept):
    moved = counts.on_live_model(line)
    assert (moved == line) is kept
    if not kept:
        assert moved.endswith(f'= "{counts.LIVE_MODEL}"')


@pytest.mark.parametrize(
    "source",
    [
        "image_count = 3\nprint(image_count)",  # an innocent name
        'print("Describe this video in words")',  # the word in a prompt
        "import json\nfrom PIL import Image\nfrom IPython.display import display",  # an import cell
        (
            'prompt = "Summarise https://abc.xyz/report.pdf"\nconfig = {"tools": [{"url_context":'
            " {}}]}"
        ),
        # shows what came back
        "for part in response.parts:\n  display(Image(data=part.inline_data.data))",
    ],
)
def test_text_cells_are_run(source):
    assert counts.left_out_because(source) == ""


@pytest.mark.parametrize(
    "source, why",
    [
        ("with open('cat.png', 'rb') as f:\n  image_bytes = f.read()", "media file"),
        ("img = Image.open(path)", "opens an image"),
        ("doc = client.files.upload(file='a11.txt')", "Files API"),
        ('parts = [{"inlineData": {"mimeType": "image/png", "data": encoded}}]', "bytes"),
        ('input = [{"type": "video", "uri": link}]', "Interactions"),
        ("async with client.aio.live.connect(model=M) as s:\n  pass", "Live API"),
        ("%%bash\ncurl https://example.com", "cell magic"),
        ("!pip install -q pandas", "only install"),
    ],
)
def test_media_and_magic_cells_are_left_out_with_a_reason(source, why):
    assert why in counts.left_out_because(source)


def report(**fields):
    base = {
        "error": None,
        "code": None,
        "printed": "",
        "requests": 1,
        "before_exec": False,
        "in_sdk": False,
    }
    return base | fields


def test_an_error_before_any_request_is_the_clients_and_after_one_a_crash():
    refused = report(
        error="TypeError: create() got unexpected keyword argument(s): config",
        requests=0,
        in_sdk=True,
    )
    assert counts.classify(refused, "") == "client"
    assert (
        counts.classify(report(error="SyntaxError: expected ':'", requests=0, before_exec=True), "")
        == "client"
    )
    # pydantic called by the cell itself on an earlier answer: the answer's fault
    assert counts.classify(report(error="ValidationError: ...", requests=0), "") == "crash"
    assert counts.classify(report(error="TypeError: x", requests=2, in_sdk=True), "") == "crash"
    assert counts.classify(report(error="ClientError: 404", code=404), "") == "4xx"


def test_silent_needs_code_that_could_show():
    assert counts.classify(report(printed=""), "a saved answer") == "silent"
    assert not counts.can_show("class Recipe(dict):\n    name: str")
    assert not counts.can_show("client = make()\nMODEL = 'x'")
    assert counts.can_show("if ok:\n  exec(code)")
    assert counts.can_show("response.text")
    # a display helper of the notebook's own
    assert counts.can_show("if response:\n  show_parts(response)")


def cells(*specs):
    return [Cell(i, source, outcome, detail) for i, (source, outcome, detail) in enumerate(specs)]


def test_a_name_error_follows_the_cell_that_should_have_bound_the_name():
    chain = cells(
        ("img = Image.open('x.png')", "left out", "opens an image"),
        ("caption = ask(img)", "crash", "NameError: name 'img' is not defined"),
        ("print(caption)", "crash", "NameError: name 'caption' is not defined"),
        ("print(never_bound)", "crash", "NameError: name 'never_bound' is not defined"),
    )
    assert root_of(chain, 2).index == 0  # traced back through the NameError of cell 1
    assert root_of(chain, 3) is None
    assert whose_fault(chain[2], root_of(chain, 2)).startswith("left out")


def test_a_crash_reading_a_refused_cells_name_is_that_refusals():
    chain = cells(
        ("response = ask('hi')", "clean", ""),
        (
            "response = ask('search', tools=[search])",
            "4xx",
            "ClientError: 400 ... built-in tool google_search",
        ),
        (
            "print(response.candidates[0].grounding_metadata.web_search_queries)",
            "crash",
            "AttributeError: 'NoneType' object has no attribute 'web_search_queries'",
        ),
    )
    root = stale_input(chain, 2)
    assert root.index == 1
    assert whose_fault(chain[2], root) == "deliberate refusal (built-in tool)"
    assert whose_fault(Cell(0, "x", "silent", ""), None) == "glass box"

"""The student's function served from a jail, its check in the grader: issue 30's tricks, channel.

Each trick of tests/fixtures/grading/service_tricks.py is one solution's function cell replaced,
checked as `run_notebooks` checks it after the notebook ran (`checked`, from test_grade_outside).
"""

import json
import os
import sys
from pathlib import Path

import nbformat
import pytest
from google.genai import types
from test_grade_outside import checked

from harness.memory import Memory
from harness.workbook import SOLUTIONS, channel
from harness.workbook.sandbox import can_isolate

sys.path.insert(0, str(Path(__file__).parent / "fixtures" / "grading"))
from service_tricks import TRICKS  # noqa: E402

NEVER_PASSED = [name for name in TRICKS if name != "reference_with_a_no_op_line"]


@pytest.mark.parametrize("trick", NEVER_PASSED)
def test_each_trick_of_issue_30_is_not_passed(trick):
    lesson, exercise, source = TRICKS[trick]
    result = checked(lesson, exercise, source())
    assert result.status != "passed", result.message
    assert not any("forged" in r["name"] for r in result.rules), result.rules


def test_a_table_of_the_inputs_seen_at_home_fails_on_the_hidden_inputs():
    lesson, exercise, source = TRICKS["table_recorded_at_home"]
    result = checked(lesson, exercise, source())
    assert result.status == "failed" and "drawn at grading time" in result.message, result.message


def test_a_value_of_a_float_subclass_never_reaches_the_check():
    lesson, exercise, source = TRICKS["float_whose_sub_is_bound_by_a_for_loop"]
    result = checked(lesson, exercise, source())
    assert result.status == "failed" and "subclass of float" in result.message, result.message


def test_the_reference_with_a_no_op_line_passes_and_is_shown_as_a_copy():
    lesson, exercise, source = TRICKS["reference_with_a_no_op_line"]
    result = checked(lesson, exercise, source())
    assert result.status == "passed", result.message
    assert "matches the reference" in result.review and "1 statement" in result.review, (
        result.review
    )


def test_an_answer_using_the_reference_of_an_earlier_piece_passes():
    """Lesson 06's compact calls lesson 05's safe_split_points, which the lesson imports: the
    checker runs that reference for it (the student surface holds no body of it)."""
    result = checked("06", "6.2", None)
    assert result.status == "passed" and all(r["passed"] for r in result.rules), result.message


def test_an_answer_of_the_courses_named_tuples_passes():
    """13.2 may return its facts as the course's `Memory`: the checker rebuilds its own class."""
    notebook = nbformat.read(SOLUTIONS / "13_move_dont_delete.ipynb", 4)
    [cell] = [c for c in notebook.cells if "### BEGIN SOLUTION 13.2" in c.source]
    kept = "kept = [fact for fact in newest.values() if fact[1].strip()]"
    assert kept in cell.source
    source = "from harness.memory import Memory\n" + cell.source.replace(
        kept, kept.replace("[fact for", "[Memory(*fact) for")
    )
    result = checked("13", "13.2", source)
    assert result.status == "passed" and all(r["passed"] for r in result.rules), result.message


def test_plain_values_cross_the_channel_as_they_are():
    history = [
        types.Content(role="user", parts=[types.Part(text="hi", thought_signature=b"\x00\x01")])
    ]
    value = (
        3,
        -0.5,
        None,
        True,
        "é",
        [1, [2]],
        {"k": {1, 2}, 3: frozenset({"a"})},
        b"\xff",
        history,
        [Memory("platform", "Godot", 0)],
    )
    assert channel.decode(json.loads(json.dumps(channel.encode(value)))) == value


@pytest.mark.parametrize(
    "forged",
    [
        {"model": "harness.checks.CheckResult", "json": "{}"},
        {"dataclass": "harness.checks.CheckResult", "fields": {}},
        {"function": "harness.context.build_context"},
        {"function": "builtins.eval"},
        {"handle": 1},
        {"list": [1], "extra": 2},
        {"object": "os.system"},
        {"named_tuple": "harness.retrieval.Knobs", "items": [1, 2]},
        {"named_tuple": "os.stat_result", "items": [0] * 10},
    ],
)
def test_the_checker_builds_nothing_but_plain_data_from_the_students_side(forged):
    with pytest.raises(channel.ChannelClosed):
        channel.decode(forged)


def test_a_set_keeps_the_checkers_order_on_the_students_side_only():
    ordered = channel.decode({"ordered_set": [3, 1, 2]}, from_checker=True)
    assert list(ordered) == [3, 1, 2] and channel.encode(ordered) == {"ordered_set": [3, 1, 2]}
    # what the checker takes back: a plain set
    assert type(channel.decode({"ordered_set": [3, 1, 2]})) is set


def test_a_subclass_of_a_plain_type_is_not_sent():
    class Close(float):
        pass

    with pytest.raises(channel.NotPlainData, match="subclass of float"):
        channel.encode([Close(1.0)])


def test_a_message_too_large_or_not_json_closes_the_channel():
    read, write = os.pipe()
    os.write(write, (channel.MAX_MESSAGE + 1).to_bytes(4, "big"))
    with pytest.raises(channel.ChannelClosed):
        channel.receive(read)
    os.write(write, (3).to_bytes(4, "big") + b"{x}")
    with pytest.raises(channel.ChannelClosed):
        channel.receive(read)
    os.close(write)
    with pytest.raises(channel.ChannelClosed):
        channel.receive(read)
    os.close(read)


def test_an_exception_crosses_as_its_own_class_or_by_name():
    assert type(channel.rebuilt_error(channel.error_data(ValueError("x")))) is ValueError
    refused = channel.rebuilt_error(
        {"type": "MergeRefused", "module": "harness.partitioning", "message": "m"}
    )
    assert (
        type(refused).__name__ == "MergeRefused"
        and type(refused).__module__ == "harness.partitioning"
    )
    forged = channel.rebuilt_error(
        {"type": "ExerciseFailed", "module": "harness.checks", "message": "m"}
    )
    assert isinstance(forged, channel.ForeignError) and type(forged).__name__ == "ExerciseFailed"


REGISTER_PROBE = """from harness.checks import call, exercise, rule

@exercise("99.9", "what the service sees", "operator.neg")
def _probe(fn):
    rule(False, "99.9", "SAW " + repr(call("99.9", fn)), "")
"""
PROBE = """import json, os, socket, threading

def probe():
    def attempt(action):
        try:
            return repr(action())
        except Exception as error:
            return type(error).__name__

    import harness
    import harness.context
    import inspect
    package = os.path.dirname(harness.__file__)
    return {
        "checks": sorted(os.listdir(os.path.join(package, "checks"))),
        "quizzes": os.path.exists(os.path.join(package, "quizzes")),
        "clone": os.path.exists(CLONE),
        "installed": [
            n for p in SITE if os.path.isdir(p) for n in os.listdir(p) if n.startswith("harness")
        ],
        "reference": inspect.getsource(harness.context.build_context),
        "fork": attempt(os.fork),
        "thread": attempt(lambda: threading.Thread(target=print).start()),
        "connect": attempt(lambda: socket.create_connection(("127.0.0.1", 9), timeout=1)),
        "processes": len([p for p in os.listdir("/proc") if p.isdigit()]),
    }
"""


@pytest.mark.skipif(not can_isolate(), reason="needs root for the jail with a uid of its own")
def test_the_service_sees_the_student_surface_only_and_starts_nothing(tmp_path):
    import ast
    import site

    from harness.workbook import ROOT
    from harness.workbook.runner import check_functions
    from harness.workbook.sandbox import Sandbox
    from harness.workbook.verify import Job

    tmp_path.chmod(0o711)
    clone = str(ROOT / "harness" / "checks" / "lesson03.py")
    where = f"CLONE, SITE = {clone!r}, {site.getsitepackages()!r}\n"
    source = where + PROBE
    with Sandbox.create(tmp_path) as box:
        [found] = check_functions([Job("99.9", "probe", source, 120, REGISTER_PROBE)], box)
    saw = ast.literal_eval(found["rule"].split("SAW ", 1)[1])
    assert saw["checks"] == ["__init__.py"] and not saw["quizzes"] and not saw["clone"], saw
    assert saw["installed"] == [] and "_workbook_forward(" in saw["reference"], saw
    assert saw["fork"] == "BlockingIOError" and saw["thread"] == "RuntimeError", saw
    # no interface at all; its own /proc
    assert saw["connect"] == "OSError" and saw["processes"] <= 4, saw

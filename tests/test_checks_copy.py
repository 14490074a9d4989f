"""The checks' copy of a case's arguments is a deep copy, as `copy.deepcopy` would make it."""

import copy
import random

from google.genai import types

from harness.checks.compaction_cases import compaction_cases
from harness.checks.compare import Case, deep_copy, snapshot
from harness.checks.masking_cases import masking_cases


def _history(rng: random.Random) -> list[types.Content]:
    parts = [
        types.Part(text="x" * rng.randint(0, 30)),
        types.Part(function_call=types.FunctionCall(name="run", args={"cmd": ["ls", "-l"]})),
        types.Part(function_response=types.FunctionResponse(name="run", response={"out": "ok"})),
    ]
    return [
        types.Content(
            role=rng.choice(["user", "model"]), parts=rng.sample(parts, rng.randint(1, 3))
        )
        for _ in range(rng.randint(0, 6))
    ]


def test_the_copy_equals_the_original_and_shares_nothing_mutable():
    rng = random.Random(7)
    for _ in range(200):
        history = _history(rng)
        twin = deep_copy(history, {})
        assert twin == history == copy.deepcopy(history)
        assert snapshot(twin) == snapshot(history)
        for message, copied in zip(history, twin):
            assert copied is not message and copied.parts is not message.parts
            for part, copied_part in zip(message.parts, copied.parts):
                assert copied_part is not part
                if part.function_call:
                    assert copied_part.function_call.args is not part.function_call.args
                    copied_part.function_call.args["cmd"].append("-a")
                    assert part.function_call.args["cmd"] == ["ls", "-l"]
            assert copied.model_fields_set == message.model_fields_set


def test_an_object_passed_twice_stays_one_object_in_the_copy():
    message = types.Content(role="user", parts=[types.Part(text="hi")])
    history = [message, message]
    twin = Case(history, message).copy()
    assert twin.args[0][0] is twin.args[0][1] is twin.args[1]
    assert twin.args[1] is not message


def _shape(value):
    """A snapshot in which a callable is its type (each copy of one has its own id)."""
    if callable(value) and not isinstance(value, type):
        return ("callable", type(value).__name__)
    if isinstance(value, (list, tuple)):
        return [_shape(item) for item in value]
    return snapshot(value)


def test_the_generated_cases_copy_as_deepcopy_copies_them():
    for case in [*masking_cases(), *compaction_cases(False), *compaction_cases(True)]:
        twin = case.copy()
        assert _shape(twin.args) == _shape(copy.deepcopy(case.args)) == _shape(case.args)
        assert twin.kwargs.keys() == case.kwargs.keys()

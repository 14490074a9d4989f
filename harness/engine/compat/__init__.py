"""Compatibility: what the glass box serves that no lesson uses, kept so the wire stays faithful.

No lesson reaches these modules (every solution notebook was run with coverage of harness/engine,
2026-12; the report is in benchmarks/RESULTS.md). They exist so that a program written for Gemini
gets an answer in Gemini's shape instead of an error the real API would not give:

    json_mode        JSON mode: an answer that validates against the schema asked for
    json_prompt      what the prompt shows: counts, names, numbers, a schema spelled out in Python
    json_fill        a value for each schema node, from what json_prompt read
    caller           function calling for tools no scenario registered, in AUTO, ANY and NONE modes
    function_choice  which declared functions a turn asks for (words shared with each)
    call_arguments   the arguments of a call, from what the request shows
    openai_compat    a Chat Completions request read as a generateContent request
    openai_answers   the OpenAI-compatible endpoint's routes, answers, streams and errors
    tiers            the service tier that served a call, and the header that says so

FROZEN: no new heuristics. Their answers are labels and echoes ("Popular cookie recipe 2",
'From get_weather: "Sunny, 21 C."'), not a model's: they show the shape of an answer, never its
content. A program that needs more than a shape should run online with a key.

The core imports this package in one place, harness/engine/server.py, through the names below;
nothing else in the core imports compat (tests/test_engine_layering.py).
"""

from harness.engine.compat.caller import act as call_functions
from harness.engine.compat.json_mode import shape_answer
from harness.engine.compat.openai_answers import PREFIX as OPENAI_PREFIX
from harness.engine.compat.openai_answers import error as openai_error
from harness.engine.compat.openai_answers import serve as serve_openai
from harness.engine.compat.tiers import HEADER as TIER_HEADER
from harness.engine.compat.tiers import served as served_tier

__all__ = [
    "OPENAI_PREFIX",
    "TIER_HEADER",
    "call_functions",
    "openai_error",
    "serve_openai",
    "served_tier",
    "shape_answer",
]

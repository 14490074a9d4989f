"""Tools no scenario knows: function calling as a model does it, by rules that read the request
only.

A request whose declared functions select no registered scenario gets this behaviour, in the mode
of `toolConfig.functionCallingConfig` (camelCase or snake_case, as the REST notebooks send it):

    NONE   never calls: the reader answers
    AUTO   (the default) calls the functions the latest user turn asks for (function_choice.py),
           with the arguments it shows (call_arguments.py), several at once when it asks for
           several things; once their results are in view it answers from them, quoting the
           returned values, instead of calling again. Asking for nothing a function does: the reader.
    ANY    always calls: what the turn asks for, else the first allowed function

`allowedFunctionNames` limits the choice in every mode. Steps asked in order ("first ..., then
...") are called one a round, each with the results before it in view; a function is called in a
turn as many times as the turn asks for it, never more.

    >>> weather = {"name": "get_weather", "description": "Gets the weather for a location.",
    ...            "parameters": {"type": "OBJECT", "required": ["location"],
    ...                           "properties": {"location": {"type": "STRING"}}}}
    >>> asked = {"tools": [{"functionDeclarations": [weather]}],
    ...          "contents": [{"role": "user", "parts": [{"text": "What's the weather in Paris?"}]}]}
    >>> act(asked)
    [{'functionCall': {'name': 'get_weather', 'args': {'location': 'Paris'}}}]
    >>> asked["contents"] += [{"role": "model", "parts": act(asked)}, {"role": "user", "parts": [
    ...     {"functionResponse": {"name": "get_weather", "response": {"result": "Sunny, 21 C."}}}]}]
    >>> act(asked)
    [{'text': 'From get_weather: "Sunny, 21 C."'}]
"""

import re
from collections import Counter

from harness.engine import reader
from harness.engine.behaviours import declarations
from harness.engine.compat.call_arguments import argument_sets
from harness.engine.compat.function_choice import plan
from harness.engine.prompt import canonical, content_text, response_output
from harness.engine.signatures import current_turn_start

MAX_QUOTED_WORDS = 60  # a long result is quoted up to here, so the answer stays readable
_IN_ORDER = re.compile(r"\b(first|then|next|after that|afterwards|finally)\b", re.I)


def schema_of(declaration: dict) -> dict | None:
    # NOTE: for a Python function the SDK sends its JSON schema under parametersJsonSchema.
    return next(
        (
            declaration[k]
            for k in ("parameters", "parametersJsonSchema", "parameters_json_schema")
            if declaration.get(k)
        ),
        None,
    )


def calling_config(request: dict) -> tuple[str, list | None]:
    """(mode, allowed names) of the request, read under either spelling of each key."""
    tool_config = request.get("toolConfig") or request.get("tool_config") or {}
    config = (
        tool_config.get("functionCallingConfig") or tool_config.get("function_calling_config") or {}
    )
    allowed = config.get("allowedFunctionNames", config.get("allowed_function_names"))
    return str(config.get("mode") or "AUTO").upper(), allowed


def _turn(request: dict) -> tuple[str, list, list]:
    """(the latest user text, the calls made since, (name, output) of the results since)."""
    contents = request.get("contents") or []
    start = current_turn_start(contents)
    head = contents[start] if contents else {}
    text = content_text(head) if (head.get("role") or "user") == "user" else ""
    parts = [part for content in contents[start:] for part in content.get("parts") or []]
    made = [part["functionCall"].get("name") for part in parts if "functionCall" in part]
    results = [
        (part["functionResponse"].get("name", ""), response_output(part))
        for part in parts
        if "functionResponse" in part
    ]
    return text, made, results


def _calls(asked: list, text: str, results: list) -> list[dict]:
    """functionCall parts for (declaration, clause) pairs, one per value a clause lists; the same
    call asked twice is made once."""
    calls, seen = [], set()
    for declaration, clause in asked:
        for args in argument_sets(schema_of(declaration), clause, text, results):
            call = {"name": declaration["name"], "args": args}
            if canonical(call) not in seen:
                seen.add(canonical(call))
                calls.append(call)
    return calls


def _pending(calls: list[dict], made: list) -> list[dict]:
    """The calls beyond those of the same function already made in this turn."""
    left, pending = Counter(made), []
    for call in calls:
        if left[call["name"]]:
            left[call["name"]] -= 1
        else:
            pending.append(call)
    return pending


def _quoted(output: str) -> str:
    words = output.split()
    return " ".join(words[:MAX_QUOTED_WORDS]) + (" ..." if len(words) > MAX_QUOTED_WORDS else "")


def answer_from(results: list) -> str:
    """'From get_weather: "Sunny."; from dim_lights: "True"' (each returned value, quoted)."""
    return "; ".join(
        f'{"From" if i == 0 else "from"} {name}: "{_quoted(output)}"'
        for i, (name, output) in enumerate(results)
    )


def act(request: dict) -> list[dict]:
    """The model's parts: calls, an answer from the results in view, or the reader's reply."""
    mode, allowed = calling_config(request)
    candidates = [
        d for d in declarations(request) if d.get("name") and (not allowed or d["name"] in allowed)
    ]
    if mode == "NONE" or not candidates:
        return reader.respond(request)
    text, made, results = _turn(request)
    calls = _calls(plan(text, candidates, schema_of), text, results)
    pending = _pending(calls, made)
    if pending and _IN_ORDER.search(text):
        pending = pending[:1]  # a sequence: the next step waits for this one's result
    if mode == "ANY" and not pending:
        # ANY never answers in text: Gemini makes the same calls again each round (the cookbook's
        # party in mode ANY repeats its three calls until the SDK's 10 remote calls run out, saved
        # output 2026-06).
        pending = calls or _calls([(candidates[0], text)], text, results)
    if pending:
        return [{"functionCall": call} for call in pending]
    return [{"text": answer_from(results)}] if results else reader.respond(request)

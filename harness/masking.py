"""Lesson 04: observation masking, replacing old tool outputs by short references.

A tool output has done its job once the model has acted on it; kept word for word it is paid for
on every later call. Masking swaps it for a one-line reference and files the full text in a
store, so nothing is lost: the harness (or a tool) can hand it back. Two outputs are never masked:
those of the most recent turns (the model is still reading them) and an error that is still being
debugged (the latest output of its tool and file).

>>> from google.genai import types
>>> def turn(name, path, output):
...     call = types.Content(role="model", parts=[types.Part.from_function_call(name=name, args={"path": path})])
...     reply = types.Part.from_function_response(name=name, response={"output": output})
...     return [call, types.Content(role="user", parts=[reply])]
>>> history = [types.Content(role="user", parts=[types.Part.from_text(text="Fix it.")]),
...            *turn("read_file", "README.md", "# invoicing\\n" + "rules " * 50),
...            *turn("read_file", "amounts.py", "import decimal")]
>>> store = {}
>>> masked = mask_observations(history, store, keep_last=1)
>>> masked[2].parts[0].function_response.response["output"]
'[masked obs-a52051f9: # invoicing (312 chars). Full text kept by the harness under obs-a52051f9.]'
>>> store["obs-a52051f9"] == history[2].parts[0].function_response.response["output"]
True
"""

import hashlib

from google.genai import types

from harness.formats import CallMatcher, is_error_output, is_masked, masked_stub, verdict_line
from harness.plumbing.arguments import checked

# « Techniques d'Optimisation de Contexte »: mask an output once three newer turns have followed it
MASK_AFTER_TURNS = 3


@checked
def reference_of(output: str) -> str:
    """A stable id for an output: the same text always gets the same reference."""
    return "obs-" + hashlib.sha1(output.encode("utf-8")).hexdigest()[:8]


@checked
def is_error(output: str) -> bool:
    """True for a refused or failed call and for a test run that reports failures."""
    verdict = verdict_line(output) or ""
    return is_error_output(output) or "failed" in verdict


def _key(name: str, args: dict) -> tuple:
    """What an output is 'about': the same tool on the same file (or any run of a command)."""
    return (name, (args or {}).get("path")) if name != "run_command" else (name,)


def _outputs(history) -> list[tuple[int, int, tuple]]:
    """(content index, part index, key) of every function response, in order (each response's
    call found by `formats.CallMatcher`, so two read_file calls in one turn keep their own paths).
    """
    found, calls = [], CallMatcher()
    for i, content in enumerate(history):
        for p in content.parts or []:
            if p.function_call:
                calls.called(p.function_call.name, p.function_call)
        for j, part in enumerate(content.parts or []):
            if part.function_response:
                call = calls.answered(part.function_response.name)
                found.append((i, j, _key(part.function_response.name, call.args if call else {})))
    return found


@checked(keep_last=(1, 10**6))
def mask_observations(
    history: list[types.Content], store: dict, keep_last: int = MASK_AFTER_TURNS
) -> list:
    """A new history where tool outputs older than the last `keep_last` turns are references.

    `store` (a dict) receives each masked output under its reference. Errors still being
    debugged, outputs already masked and every other part are kept as they are.
    """
    model_turns = [i for i, c in enumerate(history) if c.role == "model"]
    cutoff = model_turns[-keep_last] if len(model_turns) >= keep_last else 0
    outputs = _outputs(history)
    latest = {key: (i, j) for i, j, key in outputs}  # the last output seen for each key
    new = list(history)
    for i, j, key in outputs:
        part = history[i].parts[j]
        output = str((part.function_response.response or {}).get("output", ""))
        active_error = is_error.unchecked(output) and latest[key] == (i, j)
        if i > cutoff or active_error or is_masked(output):
            continue
        ref = reference_of.unchecked(output)
        store[ref] = output
        key_line = verdict_line(output) or next(
            (ln.strip() for ln in output.splitlines() if ln.strip()), ""
        )
        stub = masked_stub(ref, key_line, len(output))
        parts = list(new[i].parts)
        parts[j] = types.Part.from_function_response(
            name=part.function_response.name, response={"output": stub}
        )
        new[i] = types.Content(role=new[i].role, parts=parts)
    return new

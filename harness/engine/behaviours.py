"""Which behaviour answers a request: the summariser, a scenario's policy, compat or the reader.

The choice reads the request and nothing else:

    "summar..." + three known headings requested  -> summariser (even with tools declared, so a
                                                     summary asked at the end of an unchanged
                                                     agent history keeps its cached prefix)
    declares a registered scenario's tool set     -> that scenario's policy (harness.engine.scenario)
    declares other functions                      -> `call_functions`, which the server passes in:
                                                     compat's function calling
    anything else                                 -> reader

    >>> respond({"contents": [{"role": "user", "parts": [{"text": "Where is the README?"}]}]})
    [{'text': "I don't know: nothing in what I was given says that."}]

`request` is the request as the wire carries it (camelCase JSON), with any explicit cache's
systemInstruction, tools and contents already put in front, so every behaviour sees the whole
window and only the window. Each returns the model's response parts as wire dicts.
"""

from harness.engine import reader, summariser
from harness.engine.scenario import policy_for


def declarations(request: dict) -> list[dict]:
    """Every function declaration of the request's tools, in order."""
    tools = request.get("tools") or []
    return [d for tool in tools for d in tool.get("functionDeclarations") or []]


def declared_functions(request: dict) -> list[str]:
    """The names of the functions the request's tools declare, in order."""
    return [declaration.get("name", "") for declaration in declarations(request)]


def respond(request: dict, call_functions=reader.respond) -> list[dict]:
    """The response parts for `request`, from the first behaviour that applies; `call_functions`
    answers tools no scenario registered (the server passes compat's; the reader by default)."""
    summary = summariser.respond(request)
    if summary:
        return summary
    declared = declared_functions(request)
    if not declared:
        return reader.respond(request)
    policy = policy_for(declared)
    return policy.act(request) if policy else call_functions(request)

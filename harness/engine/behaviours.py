"""Which behaviour answers a request: the summariser, a scenario's policy, the generic caller or the reader.

The choice reads the request and nothing else:

    "summar..." + three known headings requested  -> summariser (even with tools declared, so a
                                                     summary asked at the end of an unchanged
                                                     agent history keeps its cached prefix)
    declares a registered scenario's tool set     -> that scenario's policy (harness.engine.scenario)
    declares other functions                      -> function calling by rules (harness.engine.caller)
    anything else                                 -> reader

    >>> respond({"contents": [{"role": "user", "parts": [{"text": "Where is the README?"}]}]})
    [{'text': "I don't know: nothing in what I was given says that."}]

`request` is the request as the wire carries it (camelCase JSON), with any explicit cache's
systemInstruction, tools and contents already put in front, so every behaviour sees the whole
window and only the window. Each returns the model's response parts as wire dicts.
"""
from harness.engine import caller, reader, summariser
from harness.engine.scenario import policy_for


def declared_functions(request: dict) -> list[str]:
    """The names of the functions the request's tools declare, in order."""
    return [declaration.get("name", "") for declaration in caller.declarations(request)]


def respond(request: dict) -> list[dict]:
    """The response parts for `request`, from the first behaviour that applies."""
    summary = summariser.respond(request)
    if summary:
        return summary
    declared = declared_functions(request)
    if not declared:
        return reader.respond(request)
    policy = policy_for(declared)
    return policy.act(request) if policy else caller.act(request)

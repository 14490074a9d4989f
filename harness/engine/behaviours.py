"""Which behaviour answers a request: a tool-using policy, the summariser or the reader.

The choice reads the request and nothing else:

    "summar..." + three known headings requested  -> summariser (even with tools declared, so a
                                                     summary asked at the end of an unchanged
                                                     agent history keeps its cached prefix)
    declares search_course                        -> tutor: harness.engine.tutor_policy.act(request)
    declares other functions                      -> agent: harness.engine.agent_policy.act(request)
    anything else                                 -> reader

    >>> respond({"contents": [{"role": "user", "parts": [{"text": "Where is the README?"}]}]})
    [{'text': "I don't know: nothing in what I was given says that."}]

`request` is the request as the wire carries it (camelCase JSON), with any explicit cache's
systemInstruction, tools and contents already put in front, so every behaviour sees the whole
window and only the window. Each returns the model's response parts as wire dicts.
"""
import importlib

from harness.engine import reader, summariser

# A declared function that selects a policy module; any other declared function selects the agent.
POLICY_BY_FUNCTION = {"search_course": "harness.engine.tutor_policy"}
AGENT_POLICY = "harness.engine.agent_policy"


def declared_functions(request: dict) -> list[str]:
    """The names of the functions the request's tools declare, in order."""
    return [declaration.get("name", "") for tool in request.get("tools") or []
            for declaration in tool.get("functionDeclarations") or []]


def _policy(request: dict) -> list[dict] | None:
    """The policy's parts, or None while its module is missing (the other behaviours stand in)."""
    names = declared_functions(request)
    module_name = next((POLICY_BY_FUNCTION[n] for n in names if n in POLICY_BY_FUNCTION), AGENT_POLICY)
    try:
        policy = importlib.import_module(module_name)
    except ModuleNotFoundError as missing:
        if missing.name != module_name:
            raise  # the policy exists but is broken: say so, do not hide it behind the reader
        return None
    return policy.act(request)


def respond(request: dict) -> list[dict]:
    """The response parts for `request`, from the first behaviour that applies."""
    summary = summariser.respond(request)
    if summary:
        return summary
    if declared_functions(request):
        parts = _policy(request)
        if parts is not None:
            return parts
    return reader.respond(request)

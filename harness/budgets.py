"""Lesson 09: a request's tokens by category, measured against allocations made before the session.

« Techniques d'Optimisation de Contexte » allocates the window between categories before a session
starts and watches each one: a category past its allocation is the one to act on. A request to
Gemini holds five kinds of tokens, told apart by where they sit and what they are:

- `system`: the system instruction;
- `tools`: the function declarations (counted as the glass box reads them, one block per
  declaration);
- `documents`: text parts of user messages that are retrieved documents (`formats.is_document`);
- `tool_outputs`: function responses, the tools' outputs as the model sees them;
- `history`: everything else: the task, the model's text and calls, summaries, state blocks.

Each part costs `part_tokens(part)`, so the five counts add up to the request's
`prompt_token_count`:

>>> from google.genai import types
>>> from harness.formats import document_text
>>> task = types.Content(role="user", parts=[types.Part.from_text(text="Fix the tests."),
...                                          types.Part.from_text(text=document_text(1, "Rounding", "Half up."))])
>>> call = types.Content(role="model", parts=[
...     types.Part.from_function_call(name="run_command", args={"command": "pytest"})])
>>> reply = types.Content(role="user", parts=[types.Part.from_function_response(name="run_command",
...                                                                              response={"output": "6 passed"})])
>>> split_by_category("Be careful.", [], [task, call, reply])
{'system': 4, 'tools': 0, 'documents': 14, 'history': 19, 'tool_outputs': 15}
"""

from google.genai import types

from harness.engine.prompt import canonical, part_text
from harness.formats import is_document
from harness.plumbing.arguments import checked, require_instance, require_number, shown
from harness.tokens import approx_tokens

CATEGORIES = ("system", "tools", "documents", "history", "tool_outputs")
# « Techniques d'Optimisation de Contexte », its example 4: shares of the window, set before the
# session. System prompt and tool definitions get no allocation there: they are never cut, only kept
# stable.
SEED_ALLOCATIONS = {"tool_outputs": 0.35, "history": 0.30, "documents": 0.20, "reserve": 0.15}
ALLOCATED = ("tool_outputs", "history", "documents", "reserve")  # the keys an allocation may name


@checked
def part_tokens(part: types.Part) -> int:
    """Tokens of one part, counted as the glass box counts a request: a text by its words, a call as
    `name {json args}`, a response as `name {json response}`; a bare thought signature costs 0."""
    return approx_tokens(
        part_text(part.model_dump(mode="json", by_alias=True, exclude_none=True)) or ""
    )


@checked
def tool_tokens(tools: list[types.Tool]) -> int:
    """Tokens of the tool declarations: each function declaration as its canonical JSON."""
    return sum(
        approx_tokens(
            canonical(declaration.model_dump(mode="json", by_alias=True, exclude_none=True))
        )
        for tool in tools
        for declaration in tool.function_declarations or []
    )


@checked
def category_of(content: types.Content, part: types.Part) -> str:
    """The category a part of `content` counts in (the module docstring's rule)."""
    if part.function_response is not None:
        return "tool_outputs"
    if content.role == "user" and part.text is not None and is_document(part.text):
        return "documents"
    return "history"


@checked
def split_by_category(
    system_instruction: str, tools: list[types.Tool], contents: list[types.Content]
) -> dict:
    """The request's tokens by category: a dict with every key of CATEGORIES, in that order."""
    usage = dict.fromkeys(CATEGORIES, 0)
    usage["system"], usage["tools"] = (
        approx_tokens(system_instruction),
        tool_tokens.unchecked(tools),
    )
    for content in contents:
        for part in content.parts or []:
            usage[category_of.unchecked(content, part)] += part_tokens.unchecked(part)
    return usage


def check_allocations(allocations: dict) -> dict:
    """`allocations` if it is a valid one: shares in [0, 1] of keys in ALLOCATED, adding up to at
    most 1."""
    require_instance("allocations", allocations, dict, "a dict of shares, e.g. SEED_ALLOCATIONS")
    unknown = sorted(map(shown, set(allocations) - set(ALLOCATED)))
    if unknown:
        raise ValueError(
            f"allocations names {', '.join(unknown[:5])}; it may name only {', '.join(ALLOCATED)} "
            "(system prompt and tool definitions are never cut, so they get no allocation)."
        )
    for name, share in allocations.items():
        require_number(f"allocations[{shown(name)}]", share, 0, 1)
    if sum(allocations.values()) > 1 + 1e-9:
        raise ValueError(
            f"allocations add up to {sum(allocations.values()):.2f}; shares of one window add up to"
            " at most 1. Lower one of them."
        )
    return allocations

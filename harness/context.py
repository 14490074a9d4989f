"""Assemble what the model sees under a token budget (exercises 3.1 and 3.2).

The layout goes from the most stable block to the most volatile one, so that consecutive calls
share a long identical prefix (the implicit cache) and the question sits last, where the model
reads it best:

    system instruction = system text + "## Facts to keep in mind" (bullets) + "## Summary of the conversation so far"
    contents           = recent turns, in order ... one user message of documents ... the question

While the total is over budget, blocks go in order of least value: the oldest turn (the summary
already covers it), then the last document (the least relevant), then the last fact. The system
text, the summary and the question are never cut: if they alone exceed the budget, the caller gets
them anyway, with `total > budget`, and should shorten the summary.

>>> si, contents, total = build_context("Be brief.", ["Ana works on team Blue."], "", [
...     ("user", "Hi, I am Ana."), ("model", "Hello Ana.")], "Which team am I on?", budget=31)
>>> [c.parts[0].text for c in contents], total
(['Hello Ana.', 'Which team am I on?'], 31)
"""

from collections.abc import Collection
from numbers import Integral
from typing import Callable, Iterable, NamedTuple, Sequence

from google.genai import types

from harness.plumbing.arguments import checked, require_list, require_non_empty_text, shown
from harness.tokens import approx_tokens

FACTS_HEADING = "## Facts to keep in mind"
SUMMARY_HEADING = "## Summary of the conversation so far"
DOCS_HEADING = "Documents that may help, most relevant first:"
ROLES = ("user", "model")


@checked
def render_system(system: str, facts: Sequence[str], summary: str) -> str:
    """The system instruction: system text, then bulleted facts, then the summary; "" stays "".

    >>> render_system("Be brief.", ["Ana likes tea."], "We talked about tea.")
    'Be brief.\\n\\n## Facts to keep in mind\\n- Ana likes tea.\\n\\n## Summary of the conversation so far\\nWe talked about tea.'
    """  # noqa: E501
    sections = [system] if system else []
    if facts:
        sections.append(FACTS_HEADING + "\n" + "\n".join(f"- {fact}" for fact in facts))
    if summary:
        sections.append(f"{SUMMARY_HEADING}\n{summary}")
    return "\n\n".join(sections)


@checked
def render_docs(docs: Sequence[str]) -> str:
    """The one user message holding the documents, in the order given; "" when there are none."""
    if not docs:
        return ""
    return DOCS_HEADING + "\n\n" + "\n\n".join(f"[{n}] {doc}" for n, doc in enumerate(docs, 1))


@checked(role=require_non_empty_text)
def as_content(role: str, text: str) -> types.Content:
    """One message of the history, as the SDK wants it."""
    return types.Content(role=role, parts=[types.Part.from_text(text=text)])


def _budget(name: str, budget) -> None:
    # NOTE: bool is a subclass of int in Python, and `budget=True` is always a mistake.
    if isinstance(budget, bool) or not isinstance(budget, Integral) or budget <= 0:
        raise ValueError(
            f"{name} must be a positive whole number of tokens, got {shown(budget)}. "
            "Pass an int such as budget=6000."
        )


def _turns(name: str, turns) -> None:
    """A list of (role, text) pairs, each role 'user' or 'model' (a one-shot iterator passes
    unread)."""
    require_list(name, turns, "(role, text) pairs")
    for index, turn in enumerate(turns if isinstance(turns, Collection) else ()):
        if not isinstance(turn, (tuple, list)) or len(turn) != 2:
            raise ValueError(f"{name}[{index}] must be a (role, text) pair, got {shown(turn)}.")
        role, text = turn
        if role not in ROLES:
            raise ValueError(
                f"{name}[{index}] has role {shown(role)}, but Gemini only knows 'user' and 'model'."
                " Use 'model' for the assistant's replies and 'user' for everything else."
            )
        if not isinstance(text, str):
            raise TypeError(
                f"{name}[{index}]'s text must be a string, got {type(text).__name__} {shown(text)}."
            )


# What fit_budget and both builders check at their entry; the rest from their annotations.
_CONTEXT_RULES = dict(turns=_turns, budget=_budget)


def _assemble(turns: list, docs: list, question: str) -> list[types.Content]:
    contents = [as_content.unchecked(role, text) for role, text in turns]
    if docs:
        contents.append(as_content.unchecked("user", render_docs.unchecked(docs)))
    contents.append(as_content.unchecked("user", question))
    return contents


class Fit(NamedTuple):
    """What survives a budget: the oldest `turns_dropped` turns go; the first `docs_kept` docs and
    `facts_kept` facts stay; `total` is what the kept context costs."""

    turns_dropped: int
    docs_kept: int
    facts_kept: int
    total: int


@checked(**_CONTEXT_RULES)
def fit_budget(
    system: str,
    facts: Iterable[str],
    summary: str,
    turns: Iterable[tuple[str, str]],
    question: str,
    budget: int = 6000,
    count: Callable[[str], int] = approx_tokens,
    docs: Iterable[str] = (),
) -> Fit:
    """Decide what `build_context` keeps, without building it (the lesson's budget panel uses this).

    Linear in the number of turns: each turn is counted once and dropping one only subtracts its
    count. The facts and docs blocks are re-counted as a whole when one of their items goes,
    because a custom `count` need not be additive (it may charge for headings and separators).
    """
    turns, facts, docs = list(turns), list(facts), list(docs)
    system_cost = count(render_system.unchecked(system, facts, summary))
    docs_cost = count(render_docs.unchecked(docs)) if docs else 0
    turn_costs = [count(text) for _, text in turns]
    total = system_cost + sum(turn_costs) + docs_cost + count(question)

    dropped = 0  # 1. the oldest turns go first: the summary already covers them
    while total > budget and dropped < len(turns):
        total -= turn_costs[dropped]
        dropped += 1
    while total > budget and docs:  # 2. then the least relevant document
        docs.pop()
        new_cost = count(render_docs.unchecked(docs)) if docs else 0
        total, docs_cost = total - docs_cost + new_cost, new_cost
    while total > budget and facts:  # 3. then the least relevant fact
        facts.pop()
        new_cost = count(render_system.unchecked(system, facts, summary))
        total, system_cost = total - system_cost + new_cost, new_cost
    return Fit(dropped, len(docs), len(facts), total)


@checked(**_CONTEXT_RULES)
def build_context(
    system: str,
    facts: Iterable[str],
    summary: str,
    turns: Iterable[tuple[str, str]],
    question: str,
    budget: int = 6000,
    count: Callable[[str], int] = approx_tokens,
    docs: Iterable[str] = (),
) -> tuple[str, list[types.Content], int]:
    """Return `(system_instruction, contents, total)` fitted to `budget` tokens as counted by
    `count`.

    `total` is count(system instruction) + count of each turn + count(docs message) +
    count(question). The caller's lists are never changed.
    """
    facts, turns, docs = list(facts), list(turns), list(docs)
    fit = fit_budget.unchecked(system, facts, summary, turns, question, budget, count, docs)
    system_instruction = render_system.unchecked(system, facts[: fit.facts_kept], summary)
    contents = _assemble(turns[fit.turns_dropped :], docs[: fit.docs_kept], question)
    return system_instruction, contents, fit.total


@checked(**_CONTEXT_RULES)
def build_context_naive(
    system: str,
    facts: Iterable[str],
    summary: str,
    turns: Iterable[tuple[str, str]],
    question: str,
    budget: int = 6000,
    count: Callable[[str], int] = approx_tokens,
    docs: Iterable[str] = (),
) -> tuple[str, list[types.Content], int]:
    """Same result as `build_context`, written as « Ordonner le contexte et tenir un budget » writes
    it: drop one block, re-render and re-count everything, repeat. Kept for the lesson's benchmark:
    with n turns to drop it counts about n²/2 turns instead of n.
    """
    turns, facts, docs = list(turns), list(facts), list(docs)

    def render():
        system_instruction = render_system.unchecked(system, facts, summary)
        total = (
            count(system_instruction)
            + sum(count(text) for _, text in turns)
            + (count(render_docs.unchecked(docs)) if docs else 0)
            + count(question)
        )
        return system_instruction, total

    system_instruction, total = render()
    while total > budget and (turns or docs or facts):
        if turns:
            turns.pop(0)
        elif docs:
            docs.pop()
        else:
            facts.pop()
        system_instruction, total = render()
    return system_instruction, _assemble(turns, docs, question), total

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
from numbers import Integral
from collections.abc import Mapping
from typing import Callable, Iterable, NamedTuple, Sequence

from google.genai import types

from harness.plumbing.arguments import require_callable, require_list_of_text, require_text
from harness.tokens import approx_tokens

FACTS_HEADING = "## Facts to keep in mind"
SUMMARY_HEADING = "## Summary of the conversation so far"
DOCS_HEADING = "Documents that may help, most relevant first:"
ROLES = ("user", "model")


def render_system(system: str, facts: Sequence[str], summary: str) -> str:
    """The system instruction: system text, then bulleted facts, then the summary; "" stays "".

    >>> render_system("Be brief.", ["Ana likes tea."], "We talked about tea.")
    'Be brief.\\n\\n## Facts to keep in mind\\n- Ana likes tea.\\n\\n## Summary of the conversation so far\\nWe talked about tea.'
    """
    require_text("system", system)
    facts = require_list_of_text("facts", facts)
    require_text("summary", summary)
    sections = [system] if system else []
    if facts:
        sections.append(FACTS_HEADING + "\n" + "\n".join(f"- {fact}" for fact in facts))
    if summary:
        sections.append(f"{SUMMARY_HEADING}\n{summary}")
    return "\n\n".join(sections)


def render_docs(docs: Sequence[str]) -> str:
    """The one user message holding the documents, in the order given; "" when there are none."""
    docs = require_list_of_text("docs", docs)
    if not docs:
        return ""
    return DOCS_HEADING + "\n\n" + "\n\n".join(f"[{n}] {doc}" for n, doc in enumerate(docs, 1))


def as_content(role: str, text: str) -> types.Content:
    """One message of the history, as the SDK wants it."""
    require_text("role", role, empty=False)
    require_text("text", text)
    return types.Content(role=role, parts=[types.Part.from_text(text=text)])


def _validated(budget, turns: Iterable) -> list[tuple[str, str]]:
    """Check the arguments a caller most often gets wrong; return the turns as a list of pairs."""
    # NOTE: bool is a subclass of int in Python, and `budget=True` is always a mistake.
    if isinstance(budget, bool) or not isinstance(budget, Integral) or budget <= 0:
        raise ValueError(f"budget must be a positive whole number of tokens, got {budget!r}. "
                         "Pass an int such as budget=6000.")
    pairs = []
    for index, turn in enumerate(turns):
        if not isinstance(turn, (tuple, list)) or len(turn) != 2:
            raise ValueError(f"turns[{index}] must be a (role, text) pair, got {turn!r:.80}.")
        role, text = turn
        if role not in ROLES:
            raise ValueError(f"turns[{index}] has role {role!r}, but Gemini only knows 'user' and 'model'. "
                             "Use 'model' for the assistant's replies and 'user' for everything else.")
        pairs.append((role, text))
    return pairs


def _arguments(system, facts, summary, turns, question, count, docs) -> None:
    """The checks fit_budget and both builders make first (budget and each turn: `_validated`)."""
    require_text("system", system)
    require_list_of_text("facts", facts)
    require_text("summary", summary)
    if isinstance(turns, (str, bytes, Mapping)) or not isinstance(turns, Iterable):
        raise TypeError(f"turns must be a list of (role, text) pairs, got {type(turns).__name__} {turns!r:.60}.")
    require_text("question", question)
    require_callable("count", count)
    require_list_of_text("docs", docs)


def _assemble(turns: list, docs: list, question: str) -> list[types.Content]:
    contents = [as_content(role, text) for role, text in turns]
    if docs:
        contents.append(as_content("user", render_docs(docs)))
    contents.append(as_content("user", question))
    return contents


class Fit(NamedTuple):
    """What survives a budget: the oldest `turns_dropped` turns go; the first `docs_kept` docs and
    `facts_kept` facts stay; `total` is what the kept context costs."""
    turns_dropped: int
    docs_kept: int
    facts_kept: int
    total: int


def fit_budget(system: str, facts: Iterable[str], summary: str, turns: Iterable[tuple[str, str]],
               question: str, budget: int = 6000, count: Callable[[str], int] = approx_tokens,
               docs: Iterable[str] = ()) -> Fit:
    """Decide what `build_context` keeps, without building it (the lesson's budget panel uses this).

    Linear in the number of turns: each turn is counted once and dropping one only subtracts its
    count. The facts and docs blocks are re-counted as a whole when one of their items goes,
    because a custom `count` need not be additive (it may charge for headings and separators).
    """
    _arguments(system, facts, summary, turns, question, count, docs)
    turns = _validated(budget, turns)
    facts, docs = list(facts), list(docs)
    system_cost = count(render_system(system, facts, summary))
    docs_cost = count(render_docs(docs)) if docs else 0
    turn_costs = [count(text) for _, text in turns]
    total = system_cost + sum(turn_costs) + docs_cost + count(question)

    dropped = 0  # 1. the oldest turns go first: the summary already covers them
    while total > budget and dropped < len(turns):
        total -= turn_costs[dropped]
        dropped += 1
    while total > budget and docs:  # 2. then the least relevant document
        docs.pop()
        new_cost = count(render_docs(docs)) if docs else 0
        total, docs_cost = total - docs_cost + new_cost, new_cost
    while total > budget and facts:  # 3. then the least relevant fact
        facts.pop()
        new_cost = count(render_system(system, facts, summary))
        total, system_cost = total - system_cost + new_cost, new_cost
    return Fit(dropped, len(docs), len(facts), total)


def build_context(system: str, facts: Iterable[str], summary: str, turns: Iterable[tuple[str, str]],
                  question: str, budget: int = 6000, count: Callable[[str], int] = approx_tokens,
                  docs: Iterable[str] = ()) -> tuple[str, list[types.Content], int]:
    """Return `(system_instruction, contents, total)` fitted to `budget` tokens as counted by `count`.

    `total` is count(system instruction) + count of each turn + count(docs message) + count(question).
    The caller's lists are never changed.
    """
    _arguments(system, facts, summary, turns, question, count, docs)
    facts, turns, docs = list(facts), list(turns), list(docs)
    fit = fit_budget(system, facts, summary, turns, question, budget, count, docs)
    system_instruction = render_system(system, facts[:fit.facts_kept], summary)
    contents = _assemble(turns[fit.turns_dropped:], docs[:fit.docs_kept], question)
    return system_instruction, contents, fit.total


def build_context_naive(system: str, facts: Iterable[str], summary: str, turns: Iterable[tuple[str, str]],
                        question: str, budget: int = 6000, count: Callable[[str], int] = approx_tokens,
                        docs: Iterable[str] = ()) -> tuple[str, list[types.Content], int]:
    """Same result as `build_context`, written as « Ordonner le contexte et tenir un budget » writes
    it: drop one block, re-render and re-count everything, repeat. Kept for the lesson's benchmark:
    with n turns to drop it counts about n²/2 turns instead of n.
    """
    _arguments(system, facts, summary, turns, question, count, docs)
    turns = _validated(budget, turns)
    facts, docs = list(facts), list(docs)

    def render():
        system_instruction = render_system(system, facts, summary)
        total = (count(system_instruction) + sum(count(text) for _, text in turns)
                 + (count(render_docs(docs)) if docs else 0) + count(question))
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

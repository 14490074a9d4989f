"""Checks for lesson 03, budgeted assembly: build_context (3.1) and its docs block (3.2).

Every text below carries its own price tag, "[10 tokens]", and the checks pass `tagged_count`,
which reads those tags. So the arithmetic does not depend on the headings or bullets a student
chooses, and a function that ignores its `count` argument is caught at once.
"""

import re

from google.genai import types

from harness.checks import ExerciseFailed, call, exercise, rule
from harness.checks.compare import Case, Diff, compare, generator
from harness.context import build_context
from harness.tokens import approx_tokens

SYSTEM = "You are a concise assistant. [5 tokens]"
FACTS = [
    "Ana is on team Blue. [3 tokens]",
    "Ana prefers tea. [3 tokens]",
    "Ana lives in Lyon. [3 tokens]",
]
SUMMARY = "Ana asked about the office move. [4 tokens]"
TURNS = [
    ("user", "Where is the new office? [10 tokens]"),
    ("model", "On Rue Garibaldi. [10 tokens]"),
    ("user", "When do we move? [10 tokens]"),
    ("model", "On 3 March. [10 tokens]"),
]
QUESTION = "Which team am I on? [2 tokens]"
DOCS = [
    "Doc A: the move is on 3 March. [6 tokens]",
    "Doc B: parking is free. [6 tokens]",
    "Doc C: the canteen opens at noon. [6 tokens]",
]
FULL = 5 + 9 + 4 + 40 + 2  # system, facts, summary, turns, question: 60 tagged tokens
_TAG = re.compile(r"\[(\d+) tokens\]")


def tagged_count(text: str) -> int:
    """The sum of the "[N tokens]" tags in `text`: headings and bullets cost nothing."""
    return sum(int(n) for n in _TAG.findall(text or ""))


def _text(content) -> str:
    return "".join(part.text or "" for part in content.parts or [])


def _label(text: str) -> str:
    """Name a piece of the scenario, for failure messages: 'turn 2', 'the question', ..."""
    names = {t: f"turn {i}" for i, (_, t) in enumerate(TURNS, 1)} | {QUESTION: "the question"}
    return names.get(text, "a docs message" if "Doc " in text else repr(text[:40]))


def _shape(contents) -> str:
    return "[" + ", ".join(_label(_text(c)) for c in contents) + "]"


def _result(ex, fn, budget, docs=None):
    facts, turns = list(FACTS), list(TURNS)
    extra = {} if docs is None else {"docs": list(docs)}
    try:
        out = call(ex, fn, SYSTEM, facts, SUMMARY, turns, QUESTION, budget, tagged_count, **extra)
    except ExerciseFailed as failure:
        rule(
            not isinstance(failure.__cause__, IndexError),
            ex,
            f"at budget {budget} your function dropped from an empty list ({failure.rule}).",
            "drop a turn only while turns are left, then move on to the next kind of block; "
            "when nothing is left to drop, stop.",
        )
        raise
    rule(
        isinstance(out, tuple) and len(out) == 3,
        ex,
        "build_context must return a tuple of three things.",
        "return system_instruction, contents, total",
    )
    si, contents, total = out
    rule(
        isinstance(si, str),
        ex,
        f"the system instruction must be a str, got {type(si).__name__}.",
        "join the system text, the facts and the summary into one string.",
    )
    rule(
        isinstance(contents, list) and all(isinstance(c, types.Content) for c in contents),
        ex,
        "contents must be a list of types.Content.",
        "build each message with types.Content(role=..., parts=[types.Part.from_text(text=...)]).",
    )
    rule(
        isinstance(total, int) and not isinstance(total, bool),
        ex,
        f"total must be an int, got {total!r}.",
        "add up what `count` returns for each piece you keep.",
    )
    rule(
        (facts, turns) == (FACTS, TURNS),
        ex,
        "your function changed the caller's facts or turns list.",
        "work on copies (list(facts)) so the caller can reuse theirs on the next call.",
    )
    rule(
        contents and contents[-1].role == "user" and _text(contents[-1]) == QUESTION,
        ex,
        f"the last message must be the question, role 'user'; got {_shape(contents)} at budget"
        f" {budget}.",
        "the question is never dropped and always comes last.",
    )
    rule(
        SYSTEM in si and SUMMARY in si,
        ex,
        f"at budget {budget} the system text or the summary is missing from the system"
        " instruction.",
        "those two are never cut, whatever the budget.",
    )
    texts = [_text(c) for c in contents]
    consistent = tagged_count(si) + sum(tagged_count(t) for t in texts)
    rule(
        total == consistent,
        ex,
        f"at budget {budget} you returned total={total}, but counting what you kept with the"
        f" `count` you were given gives {consistent}.",
        "total covers the system instruction and every message, measured with `count`, not another"
        " counter.",
    )
    return si, contents, total


def _kept_facts(si: str) -> list[str]:
    return [fact for fact in FACTS if fact in si]


def _check_layout(ex, fn):
    si, contents, total = _result(ex, fn, 1000)
    rule(
        si.startswith(SYSTEM),
        ex,
        "the system instruction must start with the system text.",
        "the most stable text goes first: that is what keeps a cacheable prefix.",
    )
    for fact in FACTS:
        rule(
            fact in si and not any(fact in _text(c) for c in contents),
            ex,
            f"the fact {fact!r} must be in the system instruction (and not in a message).",
            "facts are trusted context, not something the user asked: they belong in the system"
            " instruction.",
        )
    lines = si.splitlines()
    bullets = [i for i, line in enumerate(lines) if any(f in line for f in FACTS)]
    rule(
        len(bullets) == 3 and all(lines[i].lstrip()[:1] in "-*•" for i in bullets),
        ex,
        "each fact must sit on its own bulleted line ('- ...').",
        "one fact per line, each starting with '- '.",
    )
    rule(
        any(line.strip() and line not in SYSTEM for line in lines[: bullets[0]]),
        ex,
        "the facts need a heading line above them.",
        "put a title line such as '## ...' before the bullets.",
    )
    rule(
        [si.index(f) for f in FACTS] == sorted(si.index(f) for f in FACTS),
        ex,
        "the facts must keep the order they were given in.",
        "they come sorted by relevance: keep that order.",
    )
    summary_at = si.index(SUMMARY)
    rule(
        summary_at > si.index(FACTS[-1])
        and si[si.index(FACTS[-1]) + len(FACTS[-1]) : summary_at].strip(),
        ex,
        "the summary must come after the facts, under its own heading.",
        "system text, then facts, then summary: from the most stable to the least.",
    )
    rule(
        [(c.role, _text(c)) for c in contents] == TURNS + [("user", QUESTION)],
        ex,
        "with room for everything, contents must be the turns in order then the question; got"
        f" {_shape(contents)}.",
        "one message per (role, text) pair, with its own role, then the question.",
    )
    rule(
        total == FULL,
        ex,
        f"with room for everything the total should be {FULL} tagged tokens, got {total}.",
        "count the system instruction, each turn and the question once each.",
    )
    bare = call(ex, fn, SYSTEM, [], "", [], QUESTION, 1000, tagged_count)
    rule(
        bare[0] == SYSTEM,
        ex,
        "with no facts and no summary, the system instruction must be the system text unchanged.",
        "add a heading only when there is something to put under it.",
    )


def _check_default_count(ex, fn, **extra):
    si, contents, total = call(ex, fn, SYSTEM, FACTS, SUMMARY, TURNS, QUESTION, **extra)
    expected = approx_tokens(si) + sum(approx_tokens(_text(c)) for c in contents)
    rule(
        total == expected,
        ex,
        f"called without `count`, your total is {total}, but approx_tokens on the system "
        f"instruction and on each message you returned, as sent, gives {expected}.",
        "the default counter is approx_tokens; count the system instruction and every message with"
        " it, each message's whole text (a docs message as rendered, not its documents one by"
        " one).",
    )


@exercise("3.1", "build_context under a budget", reference="harness.context.build_context")
def check_build_context(fn):
    """The answer is held to: the layout (system text, facts bulleted under a heading, summary;
    turns then question), the total by `count`, and the drop order while over budget: oldest
    turn, then last fact; never the system text, summary or question; the caller's lists
    unchanged."""
    ex = "3.1"
    _check_layout(ex, fn)
    _check_default_count(ex, fn)
    for budget in (FULL, 1000):
        rule(
            len(_result(ex, fn, budget)[1]) == 5,
            ex,
            f"at budget {budget} nothing should be dropped.",
            "drop only while the total is over the budget (strictly greater).",
        )
    _, contents, total = _result(ex, fn, FULL - 1)
    rule(
        _shape(contents) == "[turn 2, turn 3, turn 4, the question]",
        ex,
        f"one token over budget, the oldest turn must go first; you kept {_shape(contents)}.",
        "old turns are already covered by the summary: they are worth the least.",
    )
    si, contents, total = _result(ex, fn, 30)
    rule(
        _shape(contents) == "[turn 4, the question]" and _kept_facts(si) == FACTS and total == 30,
        ex,
        f"at budget 30 only the newest turn fits, with every fact; you kept {_shape(contents)} and "
        f"{len(_kept_facts(si))} facts (total {total}).",
        "drop turns one at a time, oldest first, and stop as soon as the total fits.",
    )
    si, contents, total = _result(ex, fn, 19)
    rule(
        _kept_facts(si) == FACTS[:2] and total == 17,
        ex,
        f"at budget 19 all turns go, then only the last fact; you kept {_shape(contents)} and facts"
        f" {_kept_facts(si)} (total {total}).",
        "once no turn is left, drop facts from the end of the list: the least relevant first.",
    )
    si, contents, total = _result(ex, fn, 1)
    rule(
        _shape(contents) == "[the question]" and not _kept_facts(si) and total == 11,
        ex,
        "at budget 1 only the system text, the summary and the question remain (11 tokens); "
        f"you kept {_shape(contents)} and {len(_kept_facts(si))} facts, total {total}.",
        "when nothing else is left to drop, stop: return what remains even if it is over budget.",
    )
    compare(
        ex,
        fn,
        build_context,
        _assembly_cases(with_docs=False),
        _assembly_differs,
        _smaller_assembly,
    )
    return "layout, totals, drop order (oldest turn, then last fact) and the blocks never cut"


@exercise("3.2", "build_context with a docs block", reference="harness.context.build_context")
def check_build_context_docs(fn):
    """The answer is held to: 3.1's rules plus the docs: one user message after the turns and
    before the question, dropped from the end after the turns and before the facts."""
    ex = "3.2"
    _check_layout(ex, fn)
    si, contents, total = _result(ex, fn, 1000, docs=DOCS)
    rule(
        len(contents) == 6 and [(c.role, _text(c)) for c in contents[:4]] == TURNS,
        ex,
        "with docs and room for everything, expected the 4 turns, ONE docs message, the question; "
        f"got {_shape(contents)}.",
        "put all the documents in a single user message, after the turns and before the question.",
    )
    docs_message = _text(contents[4])
    rule(
        contents[4].role == "user"
        and all(d in docs_message for d in DOCS)
        and not any(d in si for d in DOCS),
        ex,
        "the docs message must be role 'user' and hold every document (and the system instruction"
        " none).",
        "documents depend on the question, so they sit next to it, not in the stable prefix.",
    )
    rule(
        [docs_message.index(d) for d in DOCS] == sorted(docs_message.index(d) for d in DOCS)
        and total == FULL + 18,
        ex,
        f"the documents must keep their order and the total count them ({FULL + 18} expected, got"
        f" {total}).",
        "they come most relevant first; count the docs message like any other message.",
    )
    _, contents, _ = _result(ex, fn, 1000, docs=[])
    rule(
        len(contents) == 5,
        ex,
        "with no documents there must be no docs message.",
        "skip the message when docs is empty.",
    )
    # after the layout, so a layout mistake is named as such
    _check_default_count(ex, fn, docs=DOCS)
    _, contents, total = _result(ex, fn, FULL + 17, docs=DOCS)
    rule(
        _shape(contents) == "[turn 2, turn 3, turn 4, a docs message, the question]",
        ex,
        "one token over budget, the oldest turn goes before any document; you kept"
        f" {_shape(contents)}.",
        "turns first, then docs, then facts.",
    )
    si, contents, total = _result(ex, fn, 35, docs=DOCS)
    kept_docs = [d for d in DOCS if any(d in _text(c) for c in contents)]
    rule(
        kept_docs == DOCS[:2] and _kept_facts(si) == FACTS and total == 32,
        ex,
        f"at budget 35 the turns go, then only the last document; you kept docs {kept_docs} and "
        f"{len(_kept_facts(si))} facts (total {total}).",
        "after the turns, drop documents from the end of the list (the least relevant), before any"
        " fact.",
    )
    si, contents, total = _result(ex, fn, 16, docs=DOCS)
    rule(
        _shape(contents) == "[the question]" and _kept_facts(si) == FACTS[:1] and total == 14,
        ex,
        f"at budget 16 every document goes, then facts from the end; you kept {_shape(contents)}"
        f" and facts {_kept_facts(si)} (total {total}).",
        "once the last document is gone, drop no empty docs message either.",
    )
    compare(
        ex, fn, build_context, _assembly_cases(with_docs=True), _assembly_differs, _smaller_assembly
    )
    return "docs in one message before the question, dropped after the turns and before the facts"


def _acase(spec) -> Case:
    """spec: (system, facts, summary, turns, question, budget, docs or None), texts carrying
    their tags."""
    system, facts, summary, turns, question, budget, docs = spec
    extra = {} if docs is None else {"docs": list(docs)}
    shown = (
        f"build_context(facts of {[tagged_count(f) for f in facts]} tokens, turns of "
        f"{[tagged_count(t) for _, t in turns]}"
        + ("" if docs is None else f", docs of {[tagged_count(d) for d in docs]}")
        + f", system {tagged_count(system)}, summary {tagged_count(summary)}, question"
        f" {tagged_count(question)}, budget={budget}, count=tagged_count)"
    )
    case = Case(
        system,
        list(facts),
        summary,
        list(turns),
        question,
        budget,
        tagged_count,
        note=shown,
        **extra,
    )
    case.spec = spec
    return case


def _assembly_cases(with_docs: bool) -> list:
    rng = generator()
    cases = []
    for _ in range(60):
        tag = lambda text: f"{text} [{rng.randint(0, 9)} tokens]"  # noqa: E731 (a short local helper)
        facts = [tag(f"Fact {i}.") for i in range(rng.randint(0, 3))]
        turns = [(("user", "model")[i % 2], tag(f"Turn {i}.")) for i in range(rng.randint(0, 4))]
        docs = [tag(f"Doc {i}.") for i in range(rng.randint(0, 3))] if with_docs else None
        parts = (
            tag("System."),
            facts,
            tag("Summary.") if rng.random() < 0.8 else "",
            turns,
            tag("Question?"),
        )
        full = tagged_count(
            " ".join([parts[0], *facts, parts[2], *(t for _, t in turns), parts[4], *(docs or [])])
        )
        for budget in {max(full, 1), max(full - 1, 1), rng.randint(1, full + 1)}:
            cases.append(_acase((*parts, budget, docs)))
    return cases


def _smaller_assembly(case) -> list:
    system, facts, summary, turns, question, budget, docs = case.spec
    out = [
        _acase((system, facts[:i] + facts[i + 1 :], summary, turns, question, budget, docs))
        for i in range(len(facts))
    ]
    out += [
        _acase((system, facts, summary, turns[:i] + turns[i + 1 :], question, budget, docs))
        for i in range(len(turns))
    ]
    out += [
        _acase((system, facts, summary, turns, question, budget, docs[:i] + docs[i + 1 :]))
        for i in range(len(docs or []))
    ]
    return out + (
        [_acase((system, facts, summary, turns, question, budget - 1, docs))] if budget > 1 else []
    )


def _kept(case, out):
    """(turns kept, facts kept, docs kept, total) of a build_context result, whatever its layout."""
    _, facts, _, turns, _, _, _ = case.spec
    docs = case.spec[6] or []
    si, contents, total = out
    texts = [(c.role, _text(c)) for c in contents]
    return (
        [t for t in turns if t in texts],
        [f for f in facts if f in si],
        [d for d in docs if any(d in text for _, text in texts)],
        total,
    )


def _assembly_differs(case, got, want):
    shaped = (
        isinstance(got, tuple)
        and len(got) == 3
        and isinstance(got[0], str)
        and isinstance(got[1], list)
        and all(isinstance(c, types.Content) for c in got[1])
    )
    if not shaped:
        return Diff(
            f"for {case.note} return (system_instruction: str, contents: list of types.Content,"
            " total).",
            "return a tuple of three things.",
            "returns (system_instruction, contents, total)",
        )
    mine, rule_s = _kept(case, got), _kept(case, want)
    if mine == rule_s:
        return None
    names = ("turns", "facts", "docs", "total")
    which = next(i for i in range(4) if mine[i] != rule_s[i])
    show = (
        (lambda v: [tagged_count(x if isinstance(x, str) else x[1]) for x in v])
        if which < 3
        else (lambda v: v)
    )
    return Diff(
        f"for {case.note} you kept {names[which]} {show(mine[which])}; the rule keeps"
        f" {show(rule_s[which])} (while over budget: the oldest turn, then the last document, then"
        " the last fact; never the system text, the summary or the question).",
        "drop one block at a time in that order, and stop as soon as the total is at most the"
        " budget.",
        "drop order and budget",
    )

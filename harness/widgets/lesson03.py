"""Lesson 03's panel: move the budget and watch which blocks of the context survive.

It calls the `build` it is given (the student's `build_context` in the lesson, the harness's by
default) and reads what it kept from what it returned, so a wrong drop order shows on the chart.
It opens on the full context, everything kept: slide the budget down to watch the blocks go.

>>> panel = budget_panel("Be brief.", ["Ana is on team Blue."], "Ana asked about the move.",
...                      [("user", "Where is the office?"), ("model", "On Rue Garibaldi.")],
...                      "Which team am I on?", budget=45)
>>> panel.children[1].value
"budget 45: kept 45 tokens (4 of 6 blocks); dropped 2 turns<br><small>runs the harness's build_context (3.2)</small>"
"""

from collections import Counter

import ipywidgets as widgets
import plotly.graph_objects as go

from harness.checks import ran_by
from harness.context import build_context
from harness.tokens import approx_tokens
from harness.widgets.chart import Chart

KEPT, DROPPED = "#2a9d8f", "#d0d0d0"
NEVER_CUT = ("system", "summary", "question")


def _blocks(system, facts, summary, turns, question, docs):
    """(label, text, kind) for every block, in the order the model reads them."""
    return (
        [("system text", system, "system")]
        + [(f"fact {i}", f, "fact") for i, f in enumerate(facts, 1)]
        + [("summary", summary, "summary")]
        + [(f"turn {i} ({role})", text, "turn") for i, (role, text) in enumerate(turns, 1)]
        + [(f"doc {i}", d, "doc") for i, d in enumerate(docs, 1)]
        + [("question", question, "question")]
    )


def _kept(blocks, system_instruction: str, contents) -> list[bool]:
    """Which blocks the built request holds: facts and the like by their text in the system
    instruction, turns and the question as whole messages (newest first, so a repeated text such
    as "Noted." counts once per message), documents inside the docs message."""
    texts = ["".join(part.text or "" for part in c.parts or []) for c in contents]
    messages, kept = Counter(texts), {}
    for index in reversed(range(len(blocks))):
        _, text, kind = blocks[index]
        if kind in ("turn", "question"):
            kept[index] = messages[text] > 0
            messages[text] -= kept[index]
        elif kind == "doc":
            kept[index] = any(text in t for t in texts)
        else:
            kept[index] = text in system_instruction
    return [kept[i] for i in range(len(blocks))]


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _readout(budget, total, blocks, kept) -> str:
    gone = Counter(kind for (_, _, kind), k in zip(blocks, kept) if not k)
    dropped = [
        _plural(gone[kind], word)
        for kind, word in (("turn", "turn"), ("doc", "doc"), ("fact", "fact"))
        if gone[kind]
    ]
    text = f"budget {budget}: kept {total} tokens ({sum(kept)} of {len(kept)} blocks); " + (
        "dropped " + ", ".join(dropped) if dropped else "nothing dropped"
    )
    lost = [kind for kind in NEVER_CUT if gone[kind]]
    if lost:
        text += f" (the {' and '.join(lost)} went too: they should never be cut)"
    elif total > budget:
        text += " (still over: the system text, summary and question are never cut)"
    return text


def budget_panel(
    system,
    facts,
    summary,
    turns,
    question,
    docs=(),
    budget=None,
    count=approx_tokens,
    build=build_context,
) -> widgets.VBox:
    """An IntSlider "budget", a readout with the kept total, and one bar per block (kept or
    dropped)."""
    facts, turns, docs = list(facts), list(turns), list(docs)
    blocks = _blocks(system, facts, summary, turns, question, docs)
    labels, costs = [label for label, _, _ in blocks], [count(text) for _, text, _ in blocks]
    full = build(system, facts, summary, turns, question, budget=10**9, count=count, docs=docs)[2]
    room = max(full, sum(costs), 1)  # a wrong build's total must not break the slider
    # A key press moves the budget by the smallest block: it drops at most one block, and never a
    # press that changes nothing for lack of a token or two (1 token a press took ~300 presses
    # here).
    step = max(1, min(costs))
    slider = widgets.IntSlider(
        value=budget or -(-room // step) * step,
        min=step,
        max=room + room // 4,
        step=step,
        description="budget",
        continuous_update=True,
        layout=widgets.Layout(width="500px"),
    )

    by = "<br><small>" + ran_by(("3.2", build)) + "</small>"

    def shown():
        """(bar colours, readout) for the slider's budget."""
        system_instruction, contents, total = build(
            system, facts, summary, turns, question, budget=slider.value, count=count, docs=docs
        )
        kept = _kept(blocks, system_instruction, contents)
        return [KEPT if k else DROPPED for k in kept], _readout(
            slider.value, total, blocks, kept
        ) + by

    colours, text = shown()
    readout = widgets.HTML(text)
    figure = go.Figure(
        data=[
            go.Bar(
                orientation="h",
                y=labels,
                x=costs,
                marker_color=colours,
                hovertemplate="%{y}: %{x} tokens<extra></extra>",
            )
        ],
        layout=go.Layout(
            height=120 + 22 * len(blocks),
            margin=dict(l=110, r=20, t=10, b=40),
            xaxis_title="tokens (block alone)",
            yaxis=dict(autorange="reversed"),
        ),
    )
    chart = Chart(figure)

    def redraw(_change=None):
        figure.data[0].marker.color, readout.value = shown()
        chart.show(figure)

    slider.observe(redraw, names="value")
    return widgets.VBox([slider, readout, chart])

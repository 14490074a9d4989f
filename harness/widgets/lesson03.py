"""Lesson 03's panel: move the budget and watch which blocks of the context survive.

>>> panel = budget_panel("Be brief.", ["Ana is on team Blue."], "Ana asked about the move.",
...                      [("user", "Where is the office?"), ("model", "On Rue Garibaldi.")],
...                      "Which team am I on?", budget=45)
>>> panel.children[1].value
'budget 45: kept 45 tokens (4 of 6 blocks); dropped 2 turns'
"""
import ipywidgets as widgets
import plotly.graph_objects as go

from harness.context import fit_budget
from harness.tokens import approx_tokens

KEPT, DROPPED = "#2a9d8f", "#d0d0d0"


def _blocks(system, facts, summary, turns, question, docs):
    """(label, text, kind) for every block, in the order the model reads them."""
    return ([("system text", system, "system")] + [(f"fact {i}", f, "fact") for i, f in enumerate(facts, 1)]
            + [("summary", summary, "summary")]
            + [(f"turn {i} ({role})", text, "turn") for i, (role, text) in enumerate(turns, 1)]
            + [(f"doc {i}", d, "doc") for i, d in enumerate(docs, 1)] + [("question", question, "question")])


def _kept(blocks, fit) -> list[bool]:
    """Which blocks a Fit keeps: later turns, leading facts and docs; the rest always."""
    seen, kept = {"fact": 0, "turn": 0, "doc": 0}, []
    for _, _, kind in blocks:
        index = seen.get(kind, 0)
        seen[kind] = index + 1
        kept.append({"fact": index < fit.facts_kept, "doc": index < fit.docs_kept,
                     "turn": index >= fit.turns_dropped}.get(kind, True))
    return kept


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _readout(budget, fit, blocks, kept) -> str:
    n_facts = sum(kind == "fact" for _, _, kind in blocks)
    n_docs = sum(kind == "doc" for _, _, kind in blocks)
    dropped = [_plural(n, word) for n, word in ((fit.turns_dropped, "turn"), (n_docs - fit.docs_kept, "doc"),
                                                (n_facts - fit.facts_kept, "fact")) if n]
    text = (f"budget {budget}: kept {fit.total} tokens ({sum(kept)} of {len(kept)} blocks); "
            + ("dropped " + ", ".join(dropped) if dropped else "nothing dropped"))
    if fit.total > budget:
        text += " (still over: the system text, summary and question are never cut)"
    return text


def budget_panel(system, facts, summary, turns, question, docs=(), budget=None, count=approx_tokens) -> widgets.VBox:
    """An IntSlider "budget", a readout with the kept total, and one bar per block (kept or dropped)."""
    facts, turns, docs = list(facts), list(turns), list(docs)
    full = fit_budget(system, facts, summary, turns, question, 10**9, count, docs).total
    slider = widgets.IntSlider(value=budget or full, min=1, max=full + full // 4, description="budget",
                               continuous_update=True, layout=widgets.Layout(width="500px"))
    readout = widgets.HTML()
    blocks = _blocks(system, facts, summary, turns, question, docs)
    labels, costs = [label for label, _, _ in blocks], [count(text) for _, text, _ in blocks]
    figure = go.FigureWidget(
        data=[go.Bar(orientation="h", y=labels, x=costs, hovertemplate="%{y}: %{x} tokens<extra></extra>")],
        layout=go.Layout(height=120 + 22 * len(blocks), margin=dict(l=110, r=20, t=10, b=40),
                         xaxis_title="tokens (block alone)", yaxis=dict(autorange="reversed")))

    def redraw(_change=None):
        fit = fit_budget(system, facts, summary, turns, question, slider.value, count, docs)
        kept = _kept(blocks, fit)
        figure.data[0].marker.color = [KEPT if k else DROPPED for k in kept]
        readout.value = _readout(slider.value, fit, blocks, kept)

    slider.observe(redraw, names="value")
    redraw()
    return widgets.VBox([slider, readout, figure])

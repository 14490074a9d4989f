"""Lesson 09's panel: the tutor session of exercise 9.1 and the agent on the invoicing task, side by side.

The two loops live on different scales (the tutor's window is 4,600 tokens, the agent's budget
24,000), so each has its own knobs, opened on the configuration the lesson hands it: the tutor on
your `my_config()`, the agent on `AgentConfig()`. Moving a knob re-runs that loop only. The tutor's
readout is exercise 9.1's: each target, met or missed; the agent's shows the tests' verdict.

    >>> panel = CapstonePanel(reference_config(), client=connect())       # doctest: +SKIP
    >>> panel.tutor_knobs["context_budget"].value = 4_000                 # doctest: +SKIP
    >>> panel.tutor_readout.value                                         # doctest: +SKIP
"""
import html
from dataclasses import replace

import ipywidgets as widgets
import plotly.graph_objects as go

from harness.agent import AgentConfig, run_agent
from harness.billing import cache_hit_rate
from harness.checks.lesson09 import full_history, measure, verdict
from harness.probes import Strategy

_LAYOUT = dict(layout=widgets.Layout(width="420px"), style={"description_width": "150px"},
               continuous_update=False)  # a run takes seconds: run once the knob is released


def _slider(kind, value, low, high, step, description):
    return kind(value=value, min=low, max=high, step=step, description=description, **_LAYOUT)


def _shared_knobs(config, budget: tuple[int, int, int], cap: tuple[int, int, int]) -> dict:
    """The knobs both loops have (SessionConfig's), on this loop's scale."""
    return {
        "context_budget": _slider(widgets.IntSlider, config.context_budget, *budget, "context budget"),
        "compact_ratio": _slider(widgets.FloatSlider, config.compact_ratio, 0.3, 1.0, 0.05, "compact ratio"),
        "keep_recent_turns": _slider(widgets.IntSlider, config.keep_recent_turns, 1, 8, 1, "keep recent turns"),
        "tool_output_max_chars": _slider(widgets.IntSlider, config.tool_output_max_chars, *cap, "tool output cap"),
        "truncate": widgets.Checkbox(value=config.truncate, description="cap tool outputs"),
        "compaction": widgets.Checkbox(value=config.compaction, description="compaction"),
    }


def tutor_knobs(strategy: Strategy) -> dict:
    """The tutor's knobs: a 1,000-8,000-token budget scale around the 4,600-token window."""
    return _shared_knobs(strategy, (1_000, 8_000, 250), (100, 2_400, 100)) | {
        "summary_words": _slider(widgets.IntSlider, strategy.summary_words, 20, 200, 10, "summary words")}


def agent_knobs(config: AgentConfig) -> dict:
    """The agent's knobs: a 2,000-30,000-token budget scale around its 24,000 default."""
    return _shared_knobs(config, (2_000, 30_000, 500), (200, 8_000, 100)) | {
        "harness_state": widgets.Checkbox(value=config.harness_state, description="state block")}


def _values(knobs: dict) -> dict:
    return {name: knob.value for name, knob in knobs.items()}


def tutor_readout(got: dict, full: dict) -> str:
    """Exercise 9.1's targets as a table: met or missed, with the measured figure."""
    rows = "".join(f"<tr><td>{'✅ met' if met else '❌ missed'}</td><td><b>{target}</b></td>"
                   f"<td>{html.escape(readout)}</td></tr>" for target, met, readout in verdict(got, full))
    passed = all(met for _, met, _ in verdict(got, full))
    return (f"<p><b>tutor session (exercise 9.1)</b>: {got['compactions']} compaction(s); "
            f"{'every target met' if passed else 'some target missed'}</p><table>{rows}</table>")


def agent_readout(report) -> str:
    """The agent's status, the tests' verdict, its bill and cache hit rate."""
    return (f"<p><b>agent on the invoicing task</b>: {html.escape(report.status)}; tests: "
            f"<b>{html.escape(report.last_verdict or 'never run')}</b>; ${report.cost:.5f}, "
            f"cache hit {cache_hit_rate(report.usages()):.0%}, {len(report.compactions)} compaction(s)</p>")


def _bars(report) -> tuple[list, list, list]:
    """Per agent turn: turn numbers, uncached prompt tokens, cached prompt tokens."""
    return ([t.turn for t in report.turns], [t.prompt_tokens - t.cached_tokens for t in report.turns],
            [t.cached_tokens for t in report.turns])


class CapstonePanel(widgets.VBox):
    """Two columns of knobs, each with its readout; the agent's per-turn chart and turn table below.

    `strategy`: the tutor's opening configuration (your `my_config()`); `agent_config` the agent's;
    `report`: the agent's run of `agent_config` if the lesson already has it (saves a run on open).
    """

    def __init__(self, strategy: Strategy, agent_config: AgentConfig | None = None, client=None, report=None):
        from harness import connect

        self.client, self.strategy = client or connect(), strategy
        self.agent_config = agent_config or AgentConfig()
        self.tutor_knobs, self.agent_knobs = tutor_knobs(strategy), agent_knobs(self.agent_config)
        self.tutor_readout, self.agent_readout, self.table = widgets.HTML(), widgets.HTML(), widgets.HTML()
        report = report or run_agent(self.agent_config, client=self.client)
        turns, uncached, cached = _bars(report)
        self.figure = go.FigureWidget(  # opened with the data, so it draws before any knob moves
            data=[go.Bar(x=turns, y=uncached, name="uncached prompt"), go.Bar(x=turns, y=cached, name="cached prompt")],
            layout=go.Layout(barmode="stack", height=300, margin=dict(l=60, r=20, t=30, b=40),
                             xaxis_title="agent turn", yaxis_title="prompt tokens"))
        self.show_agent(report)
        self.run_tutor()
        for knob in self.tutor_knobs.values():
            knob.observe(lambda _change: self.run_tutor(), names="value")
        for knob in self.agent_knobs.values():
            knob.observe(lambda _change: self.run_agent(), names="value")
        columns = widgets.HBox([
            widgets.VBox([widgets.HTML("<b>tutor session</b>"), *self.tutor_knobs.values(), self.tutor_readout]),
            widgets.VBox([widgets.HTML("<b>agent</b>"), *self.agent_knobs.values(), self.agent_readout])])
        super().__init__([columns, self.figure, self.table])

    def run_tutor(self) -> dict:
        """Run exercise 9.1's session with the tutor's knobs; show and return its measurement."""
        self.tutor_readout.value = "<p>running the tutor session…</p>"
        got = measure(replace(self.strategy, **_values(self.tutor_knobs)))
        self.tutor_readout.value = tutor_readout(got, full_history())
        return got

    def run_agent(self):
        """Run the agent with the agent's knobs; show and return its report."""
        self.agent_readout.value = "<p>running the agent…</p>"
        report = run_agent(replace(self.agent_config, **_values(self.agent_knobs)), client=self.client)
        self.show_agent(report)
        return report

    def show_agent(self, report) -> None:
        self.agent_readout.value = agent_readout(report)
        turns, uncached, cached = _bars(report)
        with self.figure.batch_update():
            self.figure.data[0].x = self.figure.data[1].x = turns
            self.figure.data[0].y, self.figure.data[1].y = uncached, cached
        self.table.value = f"<pre>{html.escape(report.table())}</pre>"

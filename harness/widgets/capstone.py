"""The capstone's panel (lesson 14): the tutor session of exercise 14.1 and the agent on the
invoicing task, side by side.

The two loops live on different scales (the tutor's window is 1,600 tokens, the agent's budget
24,000), so each has its own column: knobs, readout and chart, opened on the configuration the
lesson hands it: the tutor on your `my_config()`, the agent on `AgentConfig()`. Moving a knob
re-runs that loop only. The tutor's readout is exercise 14.1's: each target, met or missed; the
agent's shows the tests' verdict.

    >>> panel = CapstonePanel(reference_config(), client=connect())       # doctest: +SKIP
    >>> panel.tutor_knobs["context_budget"].value = 1_200                 # doctest: +SKIP
    >>> panel.tutor_readout.value                                         # doctest: +SKIP
"""

import html
from dataclasses import replace

import ipywidgets as widgets
import plotly.graph_objects as go

from harness.agent import AgentConfig, run_agent
from harness.billing import cache_hit_rate
from harness.capstone import WINDOW, full_history, measure, verdict
from harness.probes import Strategy
from harness.widgets.chart import Chart
from harness.widgets.lesson02 import stacked

# a run takes seconds: run once the knob is released
_LAYOUT = dict(
    layout=widgets.Layout(width="420px"),
    style={"description_width": "150px"},
    continuous_update=False,
)


def _slider(kind, value, low, high, step, description):
    return kind(value=value, min=low, max=high, step=step, description=description, **_LAYOUT)


def _shared_knobs(config, budget: tuple[int, int, int], cap: tuple[int, int, int]) -> dict:
    """The knobs both loops have (SessionConfig's), on this loop's scale."""
    return {
        "context_budget": _slider(
            widgets.IntSlider, config.context_budget, *budget, "context budget"
        ),
        "compact_ratio": _slider(
            widgets.FloatSlider, config.compact_ratio, 0.3, 1.0, 0.05, "compact ratio"
        ),
        "keep_recent_turns": _slider(
            widgets.IntSlider, config.keep_recent_turns, 1, 8, 1, "keep recent turns"
        ),
        "tool_output_max_chars": _slider(
            widgets.IntSlider, config.tool_output_max_chars, *cap, "tool output cap"
        ),
        "truncate": widgets.Checkbox(value=config.truncate, description="cap tool outputs"),
        "compaction": widgets.Checkbox(value=config.compaction, description="compaction"),
    }


def _switches_last(knobs: dict, switches: tuple[str, ...]) -> dict:
    """`knobs` with the `switches` last, compaction's the very last: a knob that compaction turned
    off makes inert (summary words, the state block) comes before it, so that moving the knobs in
    the order shown, each one acts."""
    return {name: knob for name, knob in knobs.items() if name not in switches} | {
        name: knobs[name] for name in switches
    }


def tutor_knobs(strategy: Strategy) -> dict:
    """The tutor's knobs: a 500-5,000-token budget scale around the 1,600-token window."""
    summary_words = _slider(widgets.IntSlider, strategy.summary_words, 20, 200, 10, "summary words")
    knobs = _shared_knobs(strategy, (500, 5_000, 100), (50, 2_400, 50))
    return _switches_last(knobs | {"summary_words": summary_words}, ("truncate", "compaction"))


def agent_knobs(config: AgentConfig) -> dict:
    """The agent's knobs: a 2,000-30,000-token budget scale around its 24,000 default."""
    state = widgets.Checkbox(value=config.harness_state, description="state block")
    knobs = _shared_knobs(config, (2_000, 30_000, 500), (200, 8_000, 100))
    return _switches_last(
        knobs | {"harness_state": state}, ("truncate", "harness_state", "compaction")
    )


def _values(knobs: dict) -> dict:
    return {name: knob.value for name, knob in knobs.items()}


MET = '<span style="color:#2a9d8f">✔ met</span>'
MISSED = '<span style="color:crimson">✘ missed</span>'


def tutor_readout(got: dict, full: dict) -> str:
    """Exercise 14.1's targets as a table: met or missed, with the measured figure."""
    # The check lines' own marks, coloured: DejaVu has them, where emoji fonts are often missing.
    rows = "".join(
        f"<tr><td>{MET if met else MISSED}</td><td><b>{target}</b></td>"
        f"<td>{html.escape(readout)}</td></tr>"
        for target, met, readout in verdict(got, full)
    )
    passed = all(met for _, met, _ in verdict(got, full))
    return (
        f"<p><b>tutor session (exercise 14.1)</b>: {got['compactions']} compaction(s); "
        f"{'every target met' if passed else 'some target missed'}</p><table>{rows}</table>"
    )


def agent_readout(report, config: AgentConfig) -> str:
    """The agent's status, the tests' verdict, its bill, cache hit rate and compactions."""
    return (
        f"<p><b>agent on the invoicing task</b>: {html.escape(report.status)}; tests: "
        f"<b>{html.escape(report.last_verdict or 'never run')}</b>; ${report.cost:.5f}, "
        f"cache hit {cache_hit_rate(report.usages()):.0%}, {len(report.compactions)} compaction(s) "
        f"(it compacts past {config.compact_threshold:,.0f} prompt tokens)</p>"
    )


def _bars(report) -> list[go.Bar]:
    """Per agent turn: its cached prompt tokens, the uncached ones on top."""
    calls = [(t.prompt_tokens, t.cached_tokens) for t in report.turns]
    return stacked(calls, x=[t.turn for t in report.turns], what="turn")


def _threshold(report, config: AgentConfig) -> dict:
    """A level line across the agent's turns at the prompt size past which it compacts."""
    turns = [t.turn for t in report.turns] or [1]
    return dict(x=[min(turns) - 0.5, max(turns) + 0.5], y=[config.compact_threshold] * 2)


def _line(got: dict) -> dict:
    """The tutor session's prompt tokens, call by call."""
    return dict(x=list(range(1, len(got["prompts"]) + 1)), y=got["prompts"])


_CHART = dict(height=300, width=460, margin=dict(l=60, r=10, t=40, b=40), showlegend=False)


def _agent_figure(report, config: AgentConfig) -> go.Figure:
    """The agent's prompt per turn, cached part first, against its compaction threshold."""
    return go.Figure(
        data=[
            *_bars(report),
            go.Scatter(
                **_threshold(report, config),
                mode="lines",
                line=dict(dash="dash", color="grey"),
                hovertemplate="compacts past %{y:,.0f} tokens<extra></extra>",
            ),
        ],
        layout=go.Layout(
            **_CHART,
            barmode="stack",
            title=dict(
                text="agent: cached (green), full price; dashed compaction", font=dict(size=12)
            ),
            xaxis_title="agent turn",
            yaxis_title="prompt tokens",
        ),
    )


def _tutor_figure(got: dict) -> go.Figure:
    """The tutor's prompt per call against the window."""
    figure = go.Figure(
        data=[
            go.Scatter(
                **_line(got),
                mode="lines+markers",
                line=dict(color="#264653"),
                hovertemplate="call %{x}: %{y:,} tokens<extra></extra>",
            )
        ],
        layout=go.Layout(
            **_CHART,
            title=dict(text="tutor: prompt per call, window dashed", font=dict(size=12)),
            xaxis_title="tutor call",
            yaxis_title="prompt tokens",
        ),
    )
    figure.add_hline(y=WINDOW, line=dict(dash="dash", color="grey"))
    return figure


class CapstonePanel(widgets.VBox):
    """Two columns, each a loop's knobs, readout and chart; the agent's turn table below.

    `strategy`: the tutor's opening configuration (your `my_config()`); `agent_config` the agent's;
    `report`: the agent's run of `agent_config` if the lesson already has it (saves a run on open).
    """

    def __init__(
        self, strategy: Strategy, agent_config: AgentConfig | None = None, client=None, report=None
    ):
        from harness import connect

        self.client, self.strategy = client or connect(), strategy
        self.agent_config = agent_config or AgentConfig()
        self.tutor_knobs, self.agent_knobs = tutor_knobs(strategy), agent_knobs(self.agent_config)
        self.tutor_readout, self.agent_readout, self.table = (
            widgets.HTML(),
            widgets.HTML(),
            widgets.HTML(),
        )
        # What is running, apart from the readouts: they change once, with the chart, when a run is
        # done.
        self.status = widgets.Label()
        report = report or run_agent(self.agent_config, client=self.client)
        got = self._measure_tutor()
        self.tutor_chart, self.agent_chart = (
            Chart(_tutor_figure(got)),
            Chart(_agent_figure(report, self.agent_config)),
        )
        self._show_agent_text(report, self.agent_config)
        self.tutor_readout.value = tutor_readout(got, full_history())
        for knob in self.tutor_knobs.values():
            knob.observe(lambda _change: self.run_tutor(), names="value")
        for knob in self.agent_knobs.values():
            knob.observe(lambda _change: self.run_agent(), names="value")
        # Each column as wide as its sliders and their numbers: left to flex, the first one shrank
        # under the second and its sliders' numbers were hidden. Each chart sits under its own
        # knobs.
        column = widgets.Layout(width="470px", flex="0 0 auto")
        columns = widgets.HBox(
            [
                widgets.VBox(
                    [
                        widgets.HTML("<b>tutor session</b>"),
                        *self.tutor_knobs.values(),
                        self.tutor_readout,
                        self.tutor_chart,
                    ],
                    layout=column,
                ),
                widgets.VBox(
                    [
                        widgets.HTML("<b>agent</b>"),
                        *self.agent_knobs.values(),
                        self.agent_readout,
                        self.agent_chart,
                    ],
                    layout=column,
                ),
            ]
        )
        super().__init__([self.status, columns, self.table])

    def _measure_tutor(self) -> dict:
        return measure(replace(self.strategy, **_values(self.tutor_knobs)))

    def run_tutor(self) -> dict:
        """Run exercise 14.1's session with the tutor's knobs; show and return its measurement."""
        self.status.value = "running the tutor session…"
        got = self._measure_tutor()
        self.tutor_chart.show(_tutor_figure(got))
        self.tutor_readout.value = tutor_readout(got, full_history())
        self.status.value = ""
        return got

    def run_agent(self):
        """Run the agent with the agent's knobs; show and return its report."""
        self.status.value = "running the agent…"
        config = replace(self.agent_config, **_values(self.agent_knobs))
        report = run_agent(config, client=self.client)
        self.show_agent(report, config)
        self.status.value = ""
        return report

    def show_agent(self, report, config: AgentConfig) -> None:
        self.agent_chart.show(_agent_figure(report, config))
        self._show_agent_text(report, config)

    def _show_agent_text(self, report, config: AgentConfig) -> None:
        self.agent_readout.value = agent_readout(report, config)
        self.table.value = f"<pre>{html.escape(report.table())}</pre>"

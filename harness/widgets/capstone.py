"""Lesson 09's panel: every knob of the harness, one Run button, the results side by side.

The same knobs drive two runs: the agent on the invoicing task (`AgentConfig`) and the tutor
session with planted facts (`Strategy`), so one setting shows its cost, cache hit rate and recall.

    >>> panel = CapstonePanel()           # doctest: +SKIP
    >>> # panel.run() is what the Run button does:
    >>> panel.run()                       # doctest: +SKIP
"""
import html

import ipywidgets as widgets
import plotly.graph_objects as go

from harness.agent import AgentConfig, run_agent
from harness.billing import bill, cache_hit_rate, price_for
from harness.probes import Strategy, recall, run_session

_LAYOUT = dict(layout=widgets.Layout(width="420px"), style={"description_width": "150px"})


def _knobs() -> dict:
    """One widget per knob, defaults from AgentConfig (the seeds' values)."""
    d = AgentConfig()
    return {
        "context_budget": widgets.IntSlider(value=d.context_budget, min=1000, max=30000, step=500, description="context budget", **_LAYOUT),
        "compact_ratio": widgets.FloatSlider(value=d.compact_ratio, min=0.3, max=1.0, step=0.05, description="compact ratio", **_LAYOUT),
        "keep_recent_turns": widgets.IntSlider(value=d.keep_recent_turns, min=1, max=8, description="keep recent turns", **_LAYOUT),
        "tool_output_max_chars": widgets.IntSlider(value=d.tool_output_max_chars, min=200, max=8000, step=100,
                                                   description="tool output cap", **_LAYOUT),
        "head_ratio": widgets.FloatSlider(value=d.head_ratio, min=0.0, max=1.0, step=0.05, description="head ratio", **_LAYOUT),
        "session_token_cap": widgets.IntText(value=d.session_token_cap, description="session token cap", **_LAYOUT),
        "summary_words": widgets.IntSlider(value=Strategy().summary_words, min=20, max=200, step=10,
                                           description="summary words (tutor)", **_LAYOUT),
        "truncate": widgets.Checkbox(value=d.truncate, description="cap tool outputs"),
        "compaction": widgets.Checkbox(value=d.compaction, description="compaction"),
        "harness_state": widgets.Checkbox(value=d.harness_state, description="state block (agent)"),
    }


def configs(values: dict) -> tuple[AgentConfig, Strategy]:
    """The agent's config and the tutor's strategy for one setting of the knobs."""
    shared = {k: values[k] for k in ("context_budget", "compact_ratio", "keep_recent_turns", "tool_output_max_chars",
                                     "head_ratio", "session_token_cap", "truncate", "compaction")}
    agent = AgentConfig(harness_state=values["harness_state"], **shared)
    return agent, Strategy("your setting", summary_words=values["summary_words"], **shared)


class CapstonePanel(widgets.VBox):
    """Knobs on the left, a Run button, then a summary line, a per-turn chart and the agent's turn table."""

    def __init__(self, client=None):
        self.client, self.knobs = client, _knobs()
        self.button = widgets.Button(description="Run both", button_style="primary")
        self.summary, self.table = widgets.HTML(), widgets.HTML()
        self.figure = go.FigureWidget(
            data=[go.Bar(name="uncached prompt"), go.Bar(name="cached prompt")],
            layout=go.Layout(barmode="stack", height=300, margin=dict(l=60, r=20, t=30, b=40),
                             xaxis_title="agent turn", yaxis_title="prompt tokens"))
        self.button.on_click(lambda _button: self.run())
        super().__init__([widgets.VBox(list(self.knobs.values())), self.button, self.summary, self.figure, self.table])

    def run(self) -> dict:
        """Run the agent and the tutor session with the current knobs; show and return the figures."""
        from harness import connect

        client = self.client or connect()
        agent_config, strategy = configs({name: w.value for name, w in self.knobs.items()})
        report = run_agent(agent_config, client=client)
        session = run_session(client, strategy)
        result = {"agent status": report.status, "agent cost": report.cost,
                  "agent hit rate": cache_hit_rate(report.usages()), "tutor cost": bill(session.usages(), price_for()),
                  "tutor hit rate": cache_hit_rate(session.usages()), "tutor recall": recall(session),
                  "compactions": len(report.compactions) + session.compaction_count()}
        self.summary.value = (f"<p><b>invoicing task</b>: {html.escape(report.status)}, ${report.cost:.5f}, "
                              f"cache hit {result['agent hit rate']:.0%} · <b>tutor session</b>: "
                              f"${result['tutor cost']:.5f}, cache hit {result['tutor hit rate']:.0%}, "
                              f"recall {result['tutor recall']:.0%} · {result['compactions']} compaction(s)</p>")
        with self.figure.batch_update():
            turns = [t.turn for t in report.turns]
            self.figure.data[0].x = self.figure.data[1].x = turns
            self.figure.data[0].y = [t.prompt_tokens - t.cached_tokens for t in report.turns]
            self.figure.data[1].y = [t.cached_tokens for t in report.turns]
        self.table.value = f"<pre>{html.escape(report.table())}</pre>"
        return result

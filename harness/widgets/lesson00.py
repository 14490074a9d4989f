"""Lesson 00's panel: the bill of one call, split into the three rates Gemini charges.

It opens on the call the lesson just made; the sliders change how many tokens the call read, how
many of those came from the cache and how many it wrote, and the dropdown picks another model's
price row. The bars are the dollars each kind of token costs.

>>> from google.genai import types
>>> panel = bill_panel(types.GenerateContentResponseUsageMetadata(
...     prompt_token_count=10_000, cached_content_token_count=8_000, candidates_token_count=200),
...     model="gemini-2.5-flash")
>>> panel.children[2].value
'gemini-2.5-flash: 2,000 uncached + 8,000 cached input tokens, 200 output tokens: <b>$0.001340</b> per call, $1,340.00 for a million such calls (cached share 80%).'
"""  # noqa: E501

import ipywidgets as widgets
import plotly.graph_objects as go
from google.genai import types

from harness.billing import PRICE_SHEETS, PRICES, bill, price_for, priced_model
from harness.usage import describe_usage
from harness.widgets.chart import Chart

PARTS = ("uncached input", "cached input", "output")
COLOURS = ("#e76f51", "#2a9d8f", "#264653")
MAX_PROMPT = 200_000  # tokens: a long agent prompt, where the cached share starts to matter
MAX_OUTPUT = 20_000
PROMPT_STEP, OUTPUT_STEP = 1_000, 100


def _costs(prompt: int, cached: int, output: int, model: str) -> list[float]:
    price = PRICES[model]
    return [
        (prompt - cached) * price.input / 1e6,
        cached * price.cached_input / 1e6,
        output * price.output / 1e6,
    ]


def _readout(prompt: int, cached: int, output: int, model: str) -> str:
    usage = types.GenerateContentResponseUsageMetadata(
        prompt_token_count=prompt, cached_content_token_count=cached, candidates_token_count=output
    )
    dollars = bill(usage, price_for(model))
    share = f"{cached / prompt:.0%}" if prompt else "-"
    return (
        f"{model}: {prompt - cached:,} uncached + {cached:,} cached input tokens, {output:,} output"
        f" tokens: <b>${dollars:.6f}</b> per call, ${dollars * 1e6:,.2f} for a million such calls"
        f" (cached share {share})."
    )


def bill_panel(usage, model: str | None = None) -> widgets.VBox:
    """Sliders "prompt", "cached" and "output" (tokens), a model dropdown, a readout and a bar per
    rate.

    The cached tokens are part of the prompt: the cached slider ends at the prompt's value."""
    tokens = describe_usage(usage)
    model = priced_model(model)
    # Steps of 1,000 and 100 tokens: at step 1 an arrow key moved a 200,000-token slider by one
    # token. Each slider starts at the call's own count and steps up from it: the browser snaps a
    # value to min + k x step, and from min=0 it moved the 48-token call to 0 (and its 54 output
    # tokens to 100) as it drew the panel, which then opened on a call that never happened, its
    # chart left blank.
    prompt = widgets.IntSlider(
        value=tokens["prompt"],
        min=tokens["prompt"] % PROMPT_STEP,
        max=max(MAX_PROMPT, tokens["prompt"]),
        step=PROMPT_STEP,
        description="prompt",
        layout=widgets.Layout(width="420px"),
    )
    # The cached tokens are part of the prompt: the slider's end follows the prompt, so it never
    # shows more than the readout counts.
    cached = widgets.IntSlider(
        value=min(tokens["cached"], tokens["prompt"]),
        min=0,
        max=tokens["prompt"],
        step=PROMPT_STEP,
        description="cached",
        layout=widgets.Layout(width="420px"),
    )
    output = widgets.IntSlider(
        value=tokens["output"],
        min=tokens["output"] % OUTPUT_STEP,
        max=max(MAX_OUTPUT, tokens["output"]),
        step=OUTPUT_STEP,
        description="output",
    )
    models = widgets.Dropdown(options=PRICE_SHEETS, value=model, description="model")

    def shown():
        """(costs, readout) for the controls' values."""
        cached_tokens = min(cached.value, prompt.value)
        return (
            _costs(prompt.value, cached_tokens, output.value, models.value),
            _readout(prompt.value, cached_tokens, output.value, models.value),
        )

    costs, text = shown()
    readout = widgets.HTML(text)
    # plain dollars: the default SI format read "50μ"
    figure = go.Figure(
        data=[
            go.Bar(
                x=list(PARTS),
                y=costs,
                marker_color=list(COLOURS),
                hovertemplate="%{x}: $%{y:.6f}<extra></extra>",
            )
        ],
        layout=go.Layout(
            height=300,
            margin=dict(l=70, r=20, t=30, b=40),
            yaxis_title="dollars per call",
            yaxis_tickformat="$,.6f",
        ),
    )
    chart = Chart(figure)

    def redraw(_change=None):
        figure.data[0].y, readout.value = shown()
        chart.show(figure)

    def follow_prompt(_change=None):
        cached.max = prompt.value  # ipywidgets lowers cached.value with it

    prompt.observe(follow_prompt, names="value")
    for control in (prompt, cached, output, models):
        control.observe(redraw, names="value")
    return widgets.VBox(
        [widgets.HBox([prompt, cached]), widgets.HBox([output, models]), readout, chart]
    )

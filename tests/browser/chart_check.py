"""What a student sees on every chart: drawn traces with some extent, holding the kernel's data.

The kernel's side is asked of the notebook's own kernel, through a second client on its connection
file: `harness.widgets.chart.shown_charts()`, chart number -> the figure it last showed. The
page's side is plotly's graph div inside each `.workbook-chart-<number>` output area: `gd.data`
(what plotly was given), `gd._fullData` (what it kept) and the box of each trace it drew. A blank
chart (plotly's empty axes while the readout above moves), a stale one (an older figure), a
missing one and one with points but nothing drawn all fail, and the failure says what the page
held.

    tally = Tally()
    wait_until_charts_match(page, lab, notebook, tally)  # after Run All, after each control change
"""

import array
import base64
import json
import math
import time
from dataclasses import dataclass, field

from jupyter_client import BlockingKernelClient

# Chart number -> what the visible notebook's chart area holds (null: no plotly graph in it).
CHARTS_IN_PAGE = """() => Object.fromEntries([...document.querySelectorAll(
        '.jp-NotebookPanel:not(.lm-mod-hidden) [class*="workbook-chart-"]')].map(area => {
    const number = [...area.classList].find(c => /^workbook-chart-\\d+$/.test(c)).split('-').pop();
    const gd = area.querySelector('.js-plotly-plot');
    if (!gd) return [number, null];
    const boxes = [...gd.querySelectorAll('g.trace')].map(t => {
        const box = t.getBoundingClientRect();
        return [box.width, box.height];
    });
    const listed = values => values === undefined || values === null ? null
        : typeof values === 'string' ? values : Array.from(values);
    const traces = (gd.data || []).map(t => ({
        x: listed(t.x), y: listed(t.y), color: listed((t.marker || {}).color)}));
    return [number, {traces, kept: (gd._fullData || []).length, boxes}];
}))"""
READ_KERNEL = (
    "import json as _json; from harness.widgets.chart import shown_charts as _shown;"
    " print(_json.dumps(_shown()))"
)
# plotly's JSON carries numeric arrays as base64 typed arrays: its dtype names -> array's typecodes.
TYPECODES = {"f8": "d", "f4": "f", "i4": "i", "i2": "h", "i1": "b", "u1": "B", "u2": "H", "u4": "I"}
POLL_S = 1.0
LIMIT_S = 120  # a redraw on a loaded 2-core machine; a chart that is right never waits this long
KERNEL_TIMEOUT_S = 240  # the kernel answers once the redraw it is running is done


@dataclass
class Tally:
    """What a soak saw: each figure below is a count over every wait."""

    waits: int = 0  # waits for the charts (after a Run All or a control change)
    charts: int = 0  # charts found drawing their kernel's figure, summed over the waits
    late: int = 0  # waits whose first look found a chart not (yet) right
    blank_at_first_look: int = 0  # charts with no graph or no drawn trace at a wait's first look
    failures: list[str] = field(default_factory=list)  # what the page still showed at the limit


def kernel_client(lab, notebook: str) -> BlockingKernelClient:
    """A second client on the notebook's kernel (the page keeps its own)."""
    kernel = lab.kernel_of(notebook)
    assert kernel, f"{notebook} has no kernel to ask for its charts"
    connection = lab.log.parent / "runtime" / f"kernel-{kernel['id']}.json"
    client = BlockingKernelClient(connection_file=str(connection))
    client.load_connection_file()
    client.start_channels()
    # Until its IOPub subscription is through, the kernel's output to it is lost (ZeroMQ drops what
    # a SUB socket not yet joined would get): a query sent at once could wait its whole timeout for
    # a "done" that went to nobody. wait_for_ready returns once IOPub has delivered a message.
    client.wait_for_ready(timeout=KERNEL_TIMEOUT_S)
    return client


def kernel_charts(client: BlockingKernelClient) -> dict[str, dict]:
    """Chart number -> plotly JSON of the figure it last showed, as the kernel holds it now.
    Not stored in the kernel's history: the student's [n] prompts stay as they were."""
    said = []

    def stdout(message):
        if message["msg_type"] == "stream":
            said.append(message["content"]["text"])

    reply = client.execute_interactive(
        READ_KERNEL, store_history=False, timeout=KERNEL_TIMEOUT_S, output_hook=stdout
    )
    assert reply["content"]["status"] == "ok", f"the kernel could not list its charts: {reply}"
    return json.loads("".join(said))


def values(numbers) -> list | str | None:
    """A trace's x, y or colour as a list (or one string): decodes plotly's base64 typed arrays."""
    if isinstance(numbers, dict) and "bdata" in numbers:
        return array.array(TYPECODES[numbers["dtype"]], base64.b64decode(numbers["bdata"])).tolist()
    return numbers if numbers is None or isinstance(numbers, str) else list(numbers)


def same(a, b) -> bool:
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(map(same, a, b))
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)
    return a == b


def short(numbers) -> str:
    return (
        repr(numbers[:6])[:-1] + ", ...]"
        if isinstance(numbers, list) and len(numbers) > 6
        else repr(numbers)
    )


def mismatches(kernel: dict, page: dict) -> list[str]:
    """What the page does not show of the kernel's charts: one sentence per chart that differs."""
    problems = []
    if set(page) != set(kernel):
        problems.append(
            f"chart areas on the page {sorted(page, key=int)},"
            f" charts in the kernel {sorted(kernel, key=int)}"
        )
    for number in sorted(set(page) & set(kernel), key=int):
        shown, figure = page[number], kernel[number]
        if shown is None:
            problems.append(f"chart {number}: its output area holds no plotly graph")
            continue
        want = [
            {
                "x": values(t.get("x")),
                "y": values(t.get("y")),
                "color": values(t.get("marker", {}).get("color")),
            }
            for t in figure["data"]
        ]
        if len(shown["traces"]) != len(want) or shown["kept"] != len(want):
            problems.append(
                f"chart {number}: the page holds {len(shown['traces'])} traces"
                f" (plotly kept {shown['kept']}),"
                f" the kernel {len(want)}"
            )
            continue
        for k, (w, s) in enumerate(zip(want, shown["traces"])):
            for key in ("x", "y", "color"):
                if not same(w[key], s[key]):
                    problems.append(
                        f"chart {number}, trace {k}: {key} on the page {short(s[key])},"
                        f" in the kernel {short(w[key])}"
                    )
        if any(w["x"] or w["y"] for w in want) and not any(
            wide > 0 and high > 0 for wide, high in shown["boxes"]
        ):
            problems.append(
                f"chart {number}: the kernel has points, the page draws no trace with a size"
            )
    return problems


def blank(page: dict) -> list[str]:
    """The chart areas that draw nothing: no plotly graph, no trace, or no trace with a size."""
    return [
        number
        for number, shown in page.items()
        if shown is None
        or not shown["traces"]
        or not any(wide > 0 and high > 0 for wide, high in shown["boxes"])
    ]


def wait_until_charts_match(
    page, lab, notebook: str, tally: Tally, limit_s: float = LIMIT_S
) -> int:
    """Poll until every chart area on the page draws its kernel's figure, and the kernel holds no
    other chart; return how many charts matched. At the limit, fail saying what differs."""
    tally.waits += 1
    client = None
    try:
        client = kernel_client(lab, notebook)
        deadline, first = time.monotonic() + limit_s, True
        while True:
            kernel = kernel_charts(client)  # again each round: a redraw may still be on its way
            shown = page.evaluate(CHARTS_IN_PAGE)
            problems = mismatches(kernel, shown)
            if not problems:
                tally.charts += len(kernel)
                return len(kernel)
            if first:
                tally.late += 1
                tally.blank_at_first_look += len(blank(shown))
                first = False
            if time.monotonic() > deadline:
                tally.failures.append(f"{notebook}: " + "; ".join(problems))
                raise AssertionError(
                    f"after {limit_s:.0f} s a chart does not show what the kernel holds:\n  "
                    + "\n  ".join(problems)
                )
            page.wait_for_timeout(POLL_S * 1000)
    except (TimeoutError, RuntimeError) as silent:  # no answer from the kernel: say where it is
        # the stacks in the message: CI's log keeps them
        raise AssertionError(
            f"{notebook}'s kernel did not answer ({silent}); {lab.dump_kernel_stacks(notebook)}"
        ) from silent
    finally:
        if client is not None:
            client.stop_channels()

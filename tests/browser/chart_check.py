"""What a student sees on every chart: drawn traces with some extent, holding the kernel's data.

The kernel's side is read from the notebook's own kernel, through a second client on its connection
file (`harness.widgets.chart.shown_charts()`: chart number -> the figure it last showed); the page's
side is plotly's graph div inside `.workbook-chart-<number>`: `gd.data` (what plotly was given),
`gd._fullData` (what it kept) and the SVG of each trace. A blank chart (plotly's empty axes, the
readout moving above them) fails, and so does a stale one (the page drew an older figure).

    wait_until_charts_match(page, lab, notebook)        # after Run All, and after each control change
"""
import array
import base64
import json
import math
import time

from jupyter_client import BlockingKernelClient

CHARTS_IN_PAGE = """() => Object.fromEntries([...document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) [class*="workbook-chart-"]')]
    .map(area => {
        const number = [...area.classList].find(c => /^workbook-chart-\\d+$/.test(c)).split('-').pop();
        const gd = area.querySelector('.js-plotly-plot');
        if (!gd) return [number, null];
        const boxes = [...gd.querySelectorAll('g.trace')].map(t => { const b = t.getBoundingClientRect(); return [b.width, b.height]; });
        return [number, {data: (gd.data || []).map(t => ({type: t.type || 'scatter', x: Array.from(t.x || []), y: Array.from(t.y || [])})),
                         full: (gd._fullData || []).length, boxes}];
    }))"""
READ_KERNEL = "import json as _j; from harness.widgets.chart import shown_charts as _s; print(_j.dumps(_s()))"
TYPECODES = {"f8": "d", "f4": "f", "i4": "i", "i2": "h", "i1": "b", "u1": "B", "u2": "H", "u4": "I"}  # plotly's dtypes


def kernel_charts(lab, notebook: str) -> dict[str, dict]:
    """Chart number -> plotly JSON of the figure it last showed, asked of the notebook's kernel."""
    kernel = lab.kernel_of(notebook)
    client = BlockingKernelClient(connection_file=str(lab.log.parent / "runtime" / f"kernel-{kernel['id']}.json"))
    client.load_connection_file()
    client.start_channels()
    said = []
    try:
        # Waits while a redraw runs: the kernel answers once the panel's callback is done.
        client.execute_interactive(READ_KERNEL, store_history=False, timeout=240, output_hook=lambda msg: said.append(
            msg["content"].get("text", "")) if msg["msg_type"] == "stream" else None)
    finally:
        client.stop_channels()
    return json.loads("".join(said))


def values(numbers) -> list:
    """A trace's x or y as a list: plotly's JSON may carry numbers as base64 typed arrays."""
    if isinstance(numbers, dict) and "bdata" in numbers:
        return array.array(TYPECODES[numbers["dtype"]], base64.b64decode(numbers["bdata"])).tolist()
    return list(numbers or [])


def same(a, b) -> bool:
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)
    return a == b


def mismatches(kernel: dict, page: dict) -> list[str]:
    """What the page does not show of the kernel's charts: one sentence per problem."""
    # Each chart area on the page against the kernel's chart of that number (the kernel may also hold
    # charts of panels no longer shown: a re-run cell's).
    problems = [] if page else ["no chart area on the page"]
    for number, shown in page.items():
        figure = kernel.get(number)
        if figure is None:
            problems.append(f"chart {number}: the kernel has no such chart (a stale output?)")
            continue
        if shown is None:
            problems.append(f"chart {number}: its output area holds no plotly graph")
            continue
        want = [{"x": values(t.get("x")), "y": values(t.get("y"))} for t in figure["data"]]
        if len(shown["data"]) != len(want) or shown["full"] != len(want):
            problems.append(f"chart {number}: the page holds {len(shown['data'])} traces (kept {shown['full']}),"
                            f" the kernel {len(want)}")
            continue
        for k, (w, s) in enumerate(zip(want, shown["data"])):
            for axis in ("x", "y"):
                if len(w[axis]) != len(s[axis]) or not all(map(same, w[axis], s[axis])):
                    problems.append(f"chart {number}, trace {k}: {axis} on the page {s[axis][:6]}..., in the kernel {w[axis][:6]}...")
        has_points = any(w["x"] or w["y"] for w in want)
        if has_points and not any(width > 0 and height > 0 for width, height in shown["boxes"]):
            problems.append(f"chart {number}: the kernel has points but no trace is drawn with a size")
    return problems


def wait_until_charts_match(page, lab, notebook: str, timeout_s: float = 120) -> None:
    """Poll until every chart on the page draws its kernel figure; fail saying what differs."""
    deadline = time.monotonic() + timeout_s
    kernel = kernel_charts(lab, notebook)
    assert kernel, "the kernel shows no chart: is the panel built on harness.widgets.chart.Chart?"
    while True:
        problems = mismatches(kernel, page.evaluate(CHARTS_IN_PAGE))
        if not problems:
            return
        if time.monotonic() > deadline:
            raise AssertionError("a chart does not show what the kernel holds:\n  " + "\n  ".join(problems))
        page.wait_for_timeout(500)

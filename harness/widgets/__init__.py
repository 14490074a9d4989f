"""Panels the lessons show: sliders that vary a budget knob and a plotly chart that redraws.

One module per lesson (`lesson01`, `lesson03`, ...), so a notebook cell stays one line of story
and a browser test can drive the same widgets the student sees.
"""
import math


def moved(change) -> bool:
    """False for a slider's echo: the browser may send back the value it snapped to its step, a
    float a rounding error away (0.7 -> 0.7000000000000001). Redrawing on it changes a chart before
    the browser first drew it, and such a chart can stay blank: lesson 07's did in one headless
    Chromium run (2026-12-02) and drew in the next, with this guard."""
    old, new = change.get("old"), change.get("new")
    numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (old, new))
    return not (numbers and math.isclose(old, new, rel_tol=1e-9, abs_tol=1e-12))

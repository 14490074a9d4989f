"""Panels the lessons show: sliders that vary a budget knob and a plotly chart that redraws.

One module per lesson (`lesson01`, `lesson03`, ...), so a notebook cell stays one line of story
and a browser test can drive the same widgets the student sees.
"""
import sys

# A panel's first FigureWidget imports plotly.io, which imports nbformat, whose jsonschema imports the
# optional IRI checker rfc3987_syntax, and that builds an Earley parser at import: 2.4 s of a lesson
# kernel's time, measured here (python -X importtime, 2026-12-01), for a format no panel validates.
# Marking it absent makes jsonschema skip that one optional checker (first FigureWidget 4.9 s -> 1.1 s).
sys.modules.setdefault("rfc3987_syntax", None)

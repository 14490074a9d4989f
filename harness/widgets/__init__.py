"""Panels the lessons show: sliders that vary a budget knob and a plotly chart that redraws.

One module per lesson (`lesson01`, `lesson03`, ...), so a notebook cell stays one line of story
and a browser test can drive the same widgets the student sees.
"""

"""truncate_output (4.1) and extract_verdict (4.2), one group per rule."""

import pytest

from harness.truncation import extract_verdict, truncate_output

LOG = "".join(f"{n:05d} log line\n" for n in range(2000))  # 30,000 chars, every slice recognisable


# --- a text that fits is returned unchanged
# --------------------------------------------------------


def test_short_and_exact_texts_are_unchanged():
    assert truncate_output("6 passed", 4000) == "6 passed"
    assert truncate_output(LOG[:4000], 4000) == LOG[:4000]


# --- a long text keeps 40% head and 60% tail around a marker naming what was cut
# ---------------------


def test_head_and_tail_split_40_60():
    out = truncate_output(LOG, 4000, 0.4)
    head, marker, tail = out[:1600], out[1600:-2400], out[-2400:]
    assert head == LOG[:1600] and tail == LOG[-2400:]
    assert marker.strip() == f"[... {len(LOG) - 4000} characters omitted ...]"


def test_head_only_keeps_no_tail():
    out = truncate_output(LOG, 1000, 1.0)
    assert out.startswith(LOG[:1000]) and LOG[-14:] not in out


def test_tail_only_keeps_no_head():
    assert truncate_output(LOG, 1000, 0.0).endswith(LOG[-1000:])
    assert not truncate_output(LOG, 1000, 0.0).startswith(LOG[:14])


# --- bad arguments are refused --------------------------------------------------------------------


@pytest.mark.parametrize("max_chars, ratio", [(0, 0.4), (-5, 0.4), (100, 1.01), (100, -0.1)])
def test_bad_arguments_raise_value_error(max_chars, ratio):
    with pytest.raises(ValueError, match="max_chars|head_ratio"):
        truncate_output(LOG, max_chars, ratio)


# --- the verdict is the last matching line --------------------------------------------------------


def test_verdict_is_the_last_matching_line_stripped():
    out = "test_x.py: 2 passed\n  ==== 1 failed, 5 passed in 0.02s ====  \n"
    assert extract_verdict(out) == "==== 1 failed, 5 passed in 0.02s ===="


def test_no_verdict_gives_none():
    assert extract_verdict(LOG) is None and extract_verdict("") is None


def test_head_only_truncation_loses_the_verdict_head_and_tail_keeps_it():
    log = LOG + "===== 4 failed, 2 passed in 0.05s =====\n"
    assert extract_verdict(truncate_output(log, 4000, 1.0)) is None
    assert (
        extract_verdict(truncate_output(log, 4000, 0.4))
        == "===== 4 failed, 2 passed in 0.05s ====="
    )

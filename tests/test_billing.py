"""harness.billing: the bill, the break-even price, storage rent, the perfect-cache floor."""

from types import SimpleNamespace

import pytest
from google.genai import types

from harness.billing import (
    PRICES,
    Price,
    bill,
    break_even_cached_price,
    cache_hit_rate,
    perfect_cache_floor,
    rebill,
    storage_cost,
)

FLASH = PRICES["gemini-2.5-flash"]


def usage(prompt=None, cached=None, output=None, thoughts=None):
    return types.GenerateContentResponseUsageMetadata(
        prompt_token_count=prompt,
        cached_content_token_count=cached,
        candidates_token_count=output,
        thoughts_token_count=thoughts,
    )


def test_cached_tokens_are_part_of_the_prompt_and_billed_at_the_cached_rate():
    assert bill(usage(10_000, 8_000, 200), FLASH) == pytest.approx(
        (2_000 * 0.30 + 8_000 * 0.03 + 200 * 2.50) / 1e6
    )


def test_thinking_bills_as_output_and_missing_fields_count_as_zero():
    assert bill(usage(output=100, thoughts=300), FLASH) == pytest.approx(400 * 2.50 / 1e6)
    assert bill(usage(), FLASH) == 0


def test_a_price_may_be_a_dict_an_object_or_a_price_and_a_missing_rate_says_which():
    rates = {"input": 0.30, "cached_input": 0.03, "output": 2.50}
    assert (
        bill(usage(1000), rates)
        == bill(usage(1000), SimpleNamespace(**rates))
        == bill(usage(1000), FLASH)
    )
    with pytest.raises(ValueError, match="cached_input"):
        bill(usage(1000), {"input": 0.3, "output": 2.5})


def test_a_list_of_usages_and_recorded_camelcase_dicts_bill_as_their_sum():
    calls = [usage(1000, 0, 10), usage(2000, 1000, 20)]
    assert bill(calls, FLASH) == pytest.approx(sum(bill(u, FLASH) for u in calls))
    assert bill({"promptTokenCount": 1000, "candidatesTokenCount": 10}, FLASH) == bill(
        calls[0], FLASH
    )


def test_break_even_is_where_the_two_cost_lines_cross():
    a, b = [usage(10_000_000, 9_000_000)], [usage(4_000_000, 1_000_000)]
    price = break_even_cached_price(a, b, FLASH)
    assert price == pytest.approx(0.075)
    at = Price(FLASH.input, price, FLASH.output)
    assert bill(a, at) == pytest.approx(bill(b, at))


def test_break_even_is_none_for_parallel_lines_and_negative_when_one_trace_always_wins():
    assert break_even_cached_price([usage(3000, 2000)], [usage(5000, 2000)], FLASH) is None
    assert break_even_cached_price([usage(10_000, 9_000)], [usage(12_000, 10_000)], FLASH) < 0


def test_storage_rent_scales_with_tokens_and_ttl():
    assert storage_cost(1_000_000, 3600, FLASH) == pytest.approx(1.00)
    assert storage_cost(500_000, 1800, PRICES["gemini-2.5-pro"]) == pytest.approx(4.50 / 4)


def test_hit_rate_and_the_floor_of_an_append_only_trace():
    trace = [usage(2000, 0, 10), usage(3000, 2000, 10), usage(4000, 3000, 10)]
    assert cache_hit_rate(trace) == pytest.approx(5000 / 9000)
    assert bill(trace, FLASH) == pytest.approx(perfect_cache_floor(trace, FLASH))
    rewritten = trace[:2] + [usage(1500, 0, 10)]  # a summary: shorter, but no longer cached
    assert bill(rewritten, FLASH) > perfect_cache_floor(rewritten, FLASH)


def test_rebill_prices_one_trace_at_every_sheet_and_the_contrast_is_fifty_to_one():
    contrast = PRICES["contrast-50x (DeepSeek-like)"]
    assert contrast.input / contrast.cached_input == pytest.approx(50)
    costs = rebill([usage(10_000, 9_000, 100)])
    assert set(costs) == set(PRICES) and costs["gemini-2.5-pro"] > costs["gemini-2.5-flash"]


def test_price_for_follows_the_workbook_model(monkeypatch):
    import harness
    from harness.billing import PRICES, price_for

    assert price_for() is PRICES[harness.MODEL]
    monkeypatch.setattr(harness, "MODEL", "gemini-2.5-pro")
    assert (
        price_for() is PRICES["gemini-2.5-pro"]
        and price_for("models/gemini-2.5-flash") is PRICES["gemini-2.5-flash"]
    )
    with pytest.raises(ValueError, match="Add a row"):
        price_for("gemini-9-ultra")


@pytest.mark.parametrize(
    "asked",
    [
        "gemini-3.7-flash",
        "gemini-3.5-flash",
        "gemini-flash-latest",
        "gemini-flash-lite-latest",
        "gemini-pro-latest",
        "models/gemini-3.7-flash",
    ],
)
def test_a_routed_id_or_alias_is_priced_as_the_model_gemini_serves_for_it(asked, monkeypatch):
    import harness
    from harness.billing import PRICE_SHEETS, price_for, priced_model
    from harness.models import model_row

    served = model_row(asked).id
    assert (
        priced_model(asked) == served
        and price_for(asked) is PRICES[served]
        and PRICES[asked] is PRICES[served]
    )
    monkeypatch.setattr(harness, "MODEL", asked)
    assert price_for() is PRICES[served]
    assert asked not in PRICE_SHEETS and asked not in PRICES  # the menus list each sheet once
    with pytest.raises(KeyError):
        PRICES["gemini-9-ultra"]


def test_a_session_on_a_routed_workbook_model_bills_from_its_first_call(tmp_path):
    import os
    import subprocess
    import sys

    program = (
        "from harness.agent import AgentConfig, run_agent\n"
        "report = run_agent(AgentConfig(max_turns=2))\n"
        "print(f'{report.cost:.9f}', report.turns[0].usage.prompt_token_count)\n"
    )
    env = {**os.environ, "WORKBOOK_MODEL": "gemini-3.7-flash", "WORKBOOK_OFFLINE": "1"}
    done = subprocess.run(
        [sys.executable, "-c", program], env=env, capture_output=True, text=True, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr[-2000:]
    cost, prompt = done.stdout.split()
    assert float(cost) > 0 and int(prompt) > 0

"""What a session costs: a dated price table, `bill`, the cache break-even price, storage rent.

Gemini bills three kinds of token at three rates (dollars per million tokens):

    uncached input = prompt - cached      (promptTokenCount INCLUDES the cached tokens)
    cached input   = cachedContentTokenCount
    output         = candidates + thoughts (thinking bills as output)

Worked example at gemini-2.5-flash rates (0.30 / 0.03 / 2.50): a call with 10,000 prompt tokens of
which 8,000 cached, and 200 output tokens costs
    (2,000 x 0.30 + 8,000 x 0.03 + 200 x 2.50) / 1e6 = $0.00134

    >>> from google.genai import types
    >>> usage = types.GenerateContentResponseUsageMetadata(prompt_token_count=10_000,
    ...     cached_content_token_count=8_000, candidates_token_count=200)
    >>> round(bill(usage, PRICES["gemini-2.5-flash"]), 6)
    0.00134

Edit PRICES (or make your own `Price`) to re-bill a recorded session at another provider's rates.
"""

from collections.abc import Mapping

from harness.models import LATEST, MODELS, ROUTED, Price
from harness.plumbing.arguments import (
    checked,
    require_instance,
    require_non_empty_text,
    require_number,
    shown,
)
from harness.usage import Usage, output_tokens, require_usage, token_count

Usages = Usage | list[Usage] | tuple[Usage, ...]  # one usage record or a session's list of them
# the date of harness/models.py's rows; check the provider's page before you rely on them
PRICES_AS_OF = "2026-12-01"


class PriceSheets(dict):
    """name -> Price, where a deprecated id or a `-latest` alias reads as the model Gemini serves
    for it (`PRICES["gemini-3.7-flash"] is PRICES["gemini-3.8-flash"]`): that model bills the
    call. Only the table's own rows are listed, so a menu of sheets shows each price once."""

    def __missing__(self, name):
        short = name.removeprefix("models/") if isinstance(name, str) else name
        served = ROUTED.get(short) or LATEST.get(short) or (short if short != name else None)
        if served is None or not dict.__contains__(self, served):
            raise KeyError(name)
        return self[served]


# One price sheet per model of harness/models.py (the one table of model facts), plus a contrast
# row.
PRICES = PriceSheets({name: row.price for name, row in MODELS.items()})
# The contrast the Towards AI tutor article draws: cached input 50x cheaper than input (0.0028 vs
# 0.14 $/M). NOTE: its output rate is an assumption made for the lessons (twice the input rate), not
# a quote.
PRICES["contrast-50x (DeepSeek-like)"] = Price(
    0.14,
    0.0028,
    0.28,
    0.0,
    note="input and cached rates as the Towards AI tutor article reports them; output assumed",
)
# The sheets from cheapest input to dearest, as the panels' menus list them. NOTE: 3.8 and 3.6 Flash
# are priced in the same proportions, so next to each other in a menu their bar charts look the
# same.
PRICE_SHEETS = sorted(PRICES, key=lambda name: PRICES[name].input)


@checked
def priced_model(model: str | None = None) -> str:
    """The PRICES key for `model` (default: harness.MODEL, the model the lessons call).

    A deprecated id or a `-latest` alias is priced as the model Gemini serves for it, since that
    model bills the call: `priced_model("gemini-3.7-flash")` -> 'gemini-3.8-flash'
    (harness.models.ROUTED).
    """
    from harness import MODEL

    model = (model or MODEL).strip().removeprefix("models/")
    model = model if model in PRICES else ROUTED.get(model) or LATEST.get(model) or model
    if model not in PRICES:
        raise ValueError(
            f"No price for model {shown(model)} in harness.billing.PRICES (it has"
            f" {', '.join(PRICES)}). Add a row: PRICES[{shown(model)}] = Price(input=...,"
            " cached_input=..., output=...)."
        )
    return model


@checked
def price_for(model: str | None = None) -> Price:
    """The row of PRICES for `model` (default: harness.MODEL)."""
    return PRICES[priced_model.unchecked(model)]


def _price_object(name: str, price) -> None:
    if price is None or isinstance(price, (str, bytes, int, float, list, tuple)):
        raise TypeError(
            f"{name} must be a Price (e.g. PRICES['gemini-2.5-flash']), a dict or an object of "
            f"per-million rates, got {type(price).__name__} {shown(price)}."
        )


def require_price(name: str, price) -> None:
    """A Price, a dict or an object whose rates `input`, `cached_input` and `output` are each a
    finite number of dollars per million tokens, at least 0; else TypeError / ValueError naming
    `name`.
    """
    _price_object(name, price)
    for rate_name in ("input", "cached_input", "output"):
        _rate(price, rate_name, name)


def _rate(price, name: str, price_name: str = "price") -> float:
    value = price.get(name) if isinstance(price, Mapping) else getattr(price, name, None)
    if value is None:
        raise ValueError(
            f"The {price_name} has no rate named {name!r}. Give per-million rates for "
            "'input', 'cached_input' and 'output', e.g. PRICES['gemini-2.5-flash']."
        )
    return require_number(f"{price_name}'s {name} rate", value, 0)


@checked(price=_price_object, name=require_non_empty_text)
def rate(price, name: str) -> float:
    """`price.name` or `price[name]`: a Price, any object with the attribute, or a dict; a finite
    rate >= 0."""
    return _rate(price, name)


def require_usages(name: str, usage) -> None:
    """One usage record or a list of them (`require_usage` each), where no record says it cached
    more tokens than its prompt holds; else TypeError / ValueError naming `name` or `name[i]`."""
    for where, one in _records(name, usage):
        require_usage(where, one)
        prompt, hit = (
            token_count(one, "prompt_token_count"),
            token_count(one, "cached_content_token_count"),
        )
        if hit > prompt:
            raise ValueError(
                f"{where}: {hit} cached tokens but a prompt of {prompt}; the prompt count includes"
                " the cached tokens, so cached can never exceed it. Pass the response's own"
                " usage_metadata."
            )


def _records(name: str, usage) -> list[tuple[str, object]]:
    if isinstance(usage, (list, tuple)):
        return [(f"{name}[{index}]", one) for index, one in enumerate(usage)]
    return [(name, usage)]


@checked(usage=require_usages)
def usages_of(usage: Usages) -> list:
    """A single usage record or a list of them, as a list."""
    return list(usage) if isinstance(usage, (list, tuple)) else [usage]


@checked(usage=require_usages)
def split_tokens(usage: Usages) -> tuple[int, int, int]:
    """(uncached input, cached input, output) tokens summed over one usage record or a list."""
    uncached = cached = output = 0
    for one in usages_of.unchecked(usage):
        prompt, hit = (
            token_count(one, "prompt_token_count"),
            token_count(one, "cached_content_token_count"),
        )
        uncached += prompt - hit  # the prompt count includes the cached tokens
        cached += hit
        output += output_tokens(one)
    return uncached, cached, output


@checked(usage=require_usages, price=require_price)
def bill(usage: Usages, price) -> float:
    """Dollars for `usage` (one UsageMetadata or a list) at `price`'s per-million rates."""
    uncached, cached, output = split_tokens.unchecked(usage)
    return (
        uncached * _rate(price, "input")
        + cached * _rate(price, "cached_input")
        + output * _rate(price, "output")
    ) / 1e6


@checked(trace_a=require_usages, trace_b=require_usages, price=require_price)
def break_even_cached_price(trace_a: Usages, trace_b: Usages, price) -> float | None:
    """The cached-input rate ($/M) at which both traces cost the same, other rates from `price`.

    Each trace's cost is a straight line in the cached rate c: fixed + cached_tokens * c. The lines
    cross where the fixed parts' gap is paid back by the cached tokens' gap. None when both traces
    send the same cached tokens (parallel lines); a negative result means no real price makes them
    equal, so one trace is cheaper at every price.

    Example: A sends 1M uncached + 9M cached, B (a compacted rewrite) 3M uncached + 1M cached, same
    output. At input 0.30: (3 - 1) x 0.30 / (9 - 1) = $0.075/M; above that, B is cheaper.
    """
    uncached_a, cached_a, output_a = split_tokens.unchecked(trace_a)
    uncached_b, cached_b, output_b = split_tokens.unchecked(trace_b)
    if cached_a == cached_b:
        return None
    fixed_gap = (uncached_b - uncached_a) * _rate(price, "input") + (output_b - output_a) * _rate(
        price, "output"
    )
    return fixed_gap / (cached_a - cached_b)


@checked(price=_price_object)
def storage_cost(tokens: int, ttl_seconds: float, price) -> float:
    """Rent for keeping `tokens` in an explicit cache for `ttl_seconds`.

    >>> round(storage_cost(100_000, 3600, PRICES["gemini-2.5-flash"]), 4)   # 0.1M tokens, 1 hour, $1/M/h
    0.1
    """
    return tokens / 1e6 * _rate(price, "storage_per_hour") * ttl_seconds / 3600


@checked(usage=require_usages)
def cache_hit_rate(usage: Usages) -> float:
    """Cached share of all prompt tokens (0.0 when nothing was sent)."""
    uncached, cached, _ = split_tokens.unchecked(usage)
    return cached / (uncached + cached) if uncached + cached else 0.0


@checked(usage=require_usages, price=require_price)
def perfect_cache_floor(usage: Usages, price) -> float:
    """The same prompts billed as if each only appended to the one before and the cache kept all.

    Turn k pays full price only for what it adds (prompt_k - prompt_{k-1}, never below 0) and the
    cached rate for the rest. Dividing a trace's real bill by this floor says how much of its cost
    the cache missed: about 1.0 for an append-only history, far more after rewrites.
    """
    total, previous = 0.0, 0
    for one in usages_of.unchecked(usage):
        prompt = token_count(one, "prompt_token_count")
        new = max(prompt - previous, 0)
        output = output_tokens(one)
        total += (
            new * _rate(price, "input")
            + (prompt - new) * _rate(price, "cached_input")
            + output * _rate(price, "output")
        )
        previous = prompt
    return total / 1e6


def _price_sheets(name: str, prices) -> None:
    """None (PRICES), or a dict of price sheets: name -> a price `require_price` takes."""
    if prices is not None:
        require_instance(
            name, prices, Mapping, "a dict of price sheets, name -> Price (like billing.PRICES)"
        )
        for sheet, price in prices.items():
            require_price(f"{name}[{sheet!r}]", price)


@checked(usage=require_usages, prices=_price_sheets)
def rebill(usage: Usages, prices: Mapping | None = None) -> dict[str, float]:
    """The same usage billed at every price sheet in `prices` (PRICES by default): name ->
    dollars."""
    prices = PRICES if prices is None else prices
    return {name: bill.unchecked(usage, price) for name, price in prices.items()}

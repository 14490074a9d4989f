from decimal import Decimal

from invoicing.amounts import line_total, to_cent

# A price list of half-cent amounts, 0.005 to 0.695: every one must round up.
HALF_CENTS = [Decimal(cents) / 100 + Decimal("0.005") for cents in range(70)]
ROUNDED_UP = [Decimal(cents + 1) / 100 for cents in range(70)]


def test_half_cent_rounds_up():
    assert to_cent(Decimal("2.345")) == Decimal("2.35")


def test_price_list_rounding():
    assert [to_cent(amount) for amount in HALF_CENTS] == [
        amount.quantize(Decimal("0.01")) for amount in ROUNDED_UP
    ]


def test_line_total_with_discount():
    assert line_total("2.50", 50) == Decimal("112.50")

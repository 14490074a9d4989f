from decimal import Decimal

from invoicing.discounts import discount_rate


def test_no_discount_below_threshold():
    assert discount_rate(49) == Decimal("0")


def test_discount_from_threshold():
    assert discount_rate(50) == Decimal("0.10")


def test_discount_above_threshold():
    assert discount_rate(120) == Decimal("0.10")

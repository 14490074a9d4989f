"""Bulk discount rates."""
import decimal

BULK_THRESHOLD = 50  # units
BULK_RATE = decimal.Decimal("0.10")


def discount_rate(quantity: int):
    """The discount rate (a Decimal) for a line of `quantity` units."""
    if quantity > BULK_THRESHOLD:
        return BULK_RATE
    return decimal.Decimal("0")

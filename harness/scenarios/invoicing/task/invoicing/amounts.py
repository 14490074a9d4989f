"""Amounts in euros, as decimals kept to the cent."""
import decimal

from invoicing.discounts import discount_rate

CENT = decimal.Decimal("0.01")


def to_cent(amount: decimal.Decimal):
    """`amount` (a Decimal) to the nearest cent."""
    return amount.quantize(CENT)


def line_total(unit_price: str, quantity: int):
    """The amount due (a Decimal) for `quantity` units at `unit_price`, discount applied."""
    gross = decimal.Decimal(unit_price) * quantity
    return to_cent(gross * (1 - discount_rate(quantity)))

"""Invoice line amounts: bulk discounts and rounding to the cent."""

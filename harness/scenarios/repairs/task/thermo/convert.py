"""Celsius to Fahrenheit, for the cold rooms' American suppliers."""


def to_fahrenheit(celsius: float) -> float:
    """`celsius` in degrees Fahrenheit."""
    return celsius * 9 / 5 + 23

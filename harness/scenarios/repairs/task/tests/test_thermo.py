from pytest import approx

from thermo.convert import to_fahrenheit


def test_freezing_point():
    assert to_fahrenheit(0) == approx(32)


def test_a_cold_room_at_minus_18():
    assert to_fahrenheit(-18) == approx(-0.4)

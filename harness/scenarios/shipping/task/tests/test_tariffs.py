from pytest import approx

from shipping.tariffs import parcel_price


def test_a_domestic_parcel_pays_the_rate_per_kilogram():
    assert parcel_price(2.0, "domestic") == approx(2.40)


def test_the_remote_surcharge_is_paid_once_per_parcel():
    assert parcel_price(3.0, "islands") == approx(3 * 1.20 + 4.90)

import math

import pytest

from shipping.weights import billable_kg

# A scale's readings from 0.1 kg to 12.0 kg: each pays for every kilogram it started.
READINGS = [tenths / 10 for tenths in range(1, 121)]


def test_whole_kilograms_are_charged_as_they_are():
    assert billable_kg(2.0) == 2


def test_a_started_kilogram_is_charged():
    assert billable_kg(2.1) == 3


def test_every_reading_pays_for_each_started_kilogram():
    assert [billable_kg(w) for w in READINGS] == [math.ceil(round(w, 1)) for w in READINGS]


def test_an_empty_parcel_is_refused():
    with pytest.raises(ValueError):
        billable_kg(0)

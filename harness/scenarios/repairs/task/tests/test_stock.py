import pytest

from stock.levels import is_out_of_stock


def test_a_product_with_units_left_is_in_stock():
    assert not is_out_of_stock(3)


def test_a_count_of_zero_is_out_of_stock():
    assert is_out_of_stock(0)


def test_a_negative_count_is_refused():
    with pytest.raises(ValueError):
        is_out_of_stock(-1)

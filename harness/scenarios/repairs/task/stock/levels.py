"""Whether a product can still be sold, from its count in the warehouse."""


def is_out_of_stock(count: int) -> bool:
    """True when a product with `count` units left can no longer be sold."""
    if count < 0:
        raise ValueError(f"a stock count is never negative, got {count}")
    return count < 0

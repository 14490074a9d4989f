"""Pass or fail, from a mark out of 20."""

PASS_MARK = 10


def passed(mark: int) -> bool:
    """True when a student with `mark` passes the exam."""
    if not 0 <= mark <= 20:
        raise ValueError(f"a mark is between 0 and 20, got {mark}")
    return mark > PASS_MARK

"""What every wrong-answer fixture module asserts of each answer: it fails, on the rule it breaks.

The modules (tests/test_wrong_answers_*.py) hold (exercise id, wrong function, rule pattern)
triples; harness/checks/docs.py reads the same triples into INSTRUCTORS.md's table of common
mistakes.
"""

import re

from harness.checks import run_check


def case_ids(cases) -> list[str]:
    """Test ids such as "9.2-masks_at_exactly_half"."""
    return [f"{exercise_id}-{wrong.__name__}" for exercise_id, wrong, _ in cases]


def assert_fails_on_its_rule(exercise_id: str, wrong, broken_rule: str) -> None:
    """`wrong` fails its check, and the rule the check names matches the regular expression
    `broken_rule`."""
    result = run_check(exercise_id, wrong)
    assert result.status == "failed", result.line()
    assert re.search(broken_rule, result.rule), (
        f"{wrong.__name__} failed on another rule: {result.rule}"
    )

"""The lessons' task: a small invoicing package with two bugs, shipped as package data in task/.

The two bugs (both against the README's rules): the bulk discount tests `quantity > BULK_THRESHOLD`
(50) where the rule says "50 units or more", and amounts are quantized in Python's default mode
(half to even) where the rule says half-up. Fixed, `pytest` in a copy prints "6 passed". Its
pytest.ini is verbose (-vv), so the failing run prints about 18,000 characters, as in « Le budget de
contexte ».

What the glass box knows of it (its "weights") is the two skills below: each fires only when
the README's rule and the code that breaks it are both in the request.
"""

import re
from pathlib import Path

from harness.engine.agent_policy import CodingAgent
from harness.engine.scenario import Skill, register
from harness.scenarios import CodingTask, add_task

TASK = add_task(
    CodingTask(
        "invoicing",
        Path(__file__).parent / "task",
        prompt=(
            "The tests of the invoicing package in your workspace fail. Find out why and fix the"
            " code so that it follows the business rules in README.md, then run the tests to"
            " confirm. When they pass, report what you changed."
        ),
    )
)


def _half_up(found: re.Match, code: str) -> str:
    # A module that imports `decimal` names the mode through it; a one-line summary quote is such a
    # module.
    prefix = "decimal." if "import decimal" in code or "\n" not in code else ""
    return f"{found.group(1)}.quantize({found.group(2)}, rounding={prefix}ROUND_HALF_UP)"


class Invoicing(CodingAgent):
    name = "invoicing"
    skills = (
        Skill(
            "inclusive bulk threshold",
            rule=re.compile(
                r"\b(\d+) units or more|\bfrom (?:exactly )?(\d+) units|\bat least (\d+) units",
                re.I,
            ),
            code=re.compile(r"if (\w*quantity\w*) > (\w+):"),
            rewrite=lambda found, code: found.group(0).replace(" > ", " >= "),
        ),
        Skill(
            "half-up rounding",
            rule=re.compile(r"half[- ]up|ROUND_HALF_UP", re.I),
            code=re.compile(r"(\w+)\.quantize\((\w+)\)"),
            rewrite=_half_up,
        ),
    )


register(Invoicing())

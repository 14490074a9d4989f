"""A second coding task: a shipping-rates package with two bugs, shipped as package data in task/.

The two bugs (both against the README's rules): the billable weight rounds to the nearest
kilogram (`round(weight_kg)`) where the rule charges every started kilogram, and the remote-zone
surcharge is multiplied by the weight where the rule makes it a flat fee per parcel. Fixed,
`pytest` in a copy prints "6 passed"; the failing run prints about 8,500 characters (-vv).

The glass box fixes it with no engine change: the two skills below are all it knows of the task.
"""

import re
from pathlib import Path

from harness.engine.agent_policy import CodingAgent
from harness.engine.scenario import Skill, register
from harness.scenarios import CodingTask, add_task

TASK = add_task(
    CodingTask(
        "shipping",
        Path(__file__).parent / "task",
        prompt=(
            "The tests of the shipping package in your workspace fail. Make the code follow the"
            " pricing rules in README.md, run the tests to confirm, and when they pass, say what"
            " you changed."
        ),
    )
)


class Shipping(CodingAgent):
    name = "shipping"
    skills = (
        Skill(
            "every started kilogram",
            rule=re.compile(r"\b(?:every|per) started kilo", re.I),
            code=re.compile(r"\bround\((\w+)\)"),
            rewrite=lambda found, code: f"math.ceil({found.group(1)})",
        ),
        Skill(
            "flat surcharge per parcel",
            rule=re.compile(r"\bonce per parcel\b", re.I),
            code=re.compile(r"\b(\w*SURCHARGE\w*) \* \w+"),
            rewrite=lambda found, code: found.group(1),
        ),
    )


register(Shipping())

"""What a scenario plugs into the glass box: a policy for its tool set, and what it "knows".

The engine is a mechanism; each scenario (a folder of `harness/scenarios/`) subclasses `Scenario`
and registers an instance when its package is imported, as a tokenizer subclasses a small base
class in minbpe. What the subclass holds is the scenario's prior knowledge, like a model's weights:

    tools     the declared functions that select its policy (`act`)
    skills    README rule -> code pattern -> rewrite, for a coding task (see `Skill`)

(The summary headings its sessions ask for are a format both sides share: harness.formats.)

    >>> class Echo(Scenario):
    ...     name, tools = "echo", frozenset({"echo"})
    ...     def act(self, request):
    ...         return [{"functionCall": {"name": "echo", "args": {}}}]
    >>> echo = register(Echo())
    >>> policy_for(["echo", "other"]) is echo, policy_for(["other"]) is echo
    (True, False)
    >>> unregister("echo")

Every registered skill is in the weights, but a skill fires only when the rule it needs and the
code it rewrites are both in the request window: the glass box still acts on the request alone.
"""

import re
from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class Skill:
    """A README rule a coding task states, the code that breaks it, and how to rewrite that code.

    >>> strict = Skill("inclusive threshold", re.compile(r"\\bor more\\b"), re.compile(r"if (\\w+) > (\\w+):"),
    ...                lambda found, code: found.group(0).replace(" > ", " >= "))
    >>> strict.fix("if units > LIMIT:\\n    ...", rules="10 units or more ship free")
    ('if units > LIMIT:', 'if units >= LIMIT:')
    >>> strict.fix("if units > LIMIT:", rules="no rule in view") is None
    True
    """

    name: str
    # searched in every text in view that may state the task's rules (README, summary)
    rule: re.Pattern
    # searched in a module's text as last seen; the match is the exact text replaced
    code: re.Pattern
    # (the match, the module's text) -> the replacement text
    rewrite: Callable[[re.Match, str], str]

    def breaks(self, code: str) -> bool:
        """True when `code` holds what this skill rewrites (whether or not its rule is in view)."""
        return bool(self.code.search(code))

    def fix(self, code: str, rules: str) -> tuple[str, str] | None:
        """(old, new) for edit_file when `rules` state the rule and `code` breaks it; else None."""
        found = self.code.search(code)
        if not found or not self.rule.search(rules):
            return None
        return found.group(0), self.rewrite(found, code)


class Scenario:
    """The base of every scenario's glass-box policy. Subclasses set the class attributes and
    `act`."""

    name: str = ""
    tools: frozenset = frozenset()  # the declared function names that select this policy
    skills: tuple = ()  # Skill rows (coding tasks)

    def selects(self, declared) -> bool:
        """True when the request declares every function of this scenario's tool set."""
        return bool(self.tools) and self.tools <= set(declared)

    def act(self, request: dict) -> list[dict]:
        """The model's response parts (camelCase wire dicts) for a request this policy was
        selected for."""
        raise NotImplementedError(f"{type(self).__name__} must define act(request)")


_REGISTERED: dict[str, Scenario] = {}


def register(scenario: Scenario) -> Scenario:
    """Add `scenario` to the glass box (one per name: registering a name again replaces it)."""
    if not isinstance(scenario, Scenario) or not scenario.name:
        raise ValueError(
            f"register() takes a named Scenario instance, got {scenario!r}: "
            "subclass harness.engine.scenario.Scenario and set its `name`."
        )
    _REGISTERED[scenario.name] = scenario
    return scenario


def unregister(name: str) -> None:
    """Remove a scenario (a test's or an instructor's trial one); unknown names are ignored."""
    _REGISTERED.pop(name, None)


def registered() -> list[Scenario]:
    """Every registered scenario, in registration order."""
    return list(_REGISTERED.values())


def policy_for(declared) -> Scenario | None:
    """The registered scenario with the largest tool set the request declares (the first
    registered of those on a tie); None if none does. A larger set is the more specific scenario:
    one that adds a tool to another's set is chosen when that tool is declared, whichever
    registered first."""
    chosen = [s for s in _REGISTERED.values() if s.selects(declared)]
    return max(chosen, key=lambda s: len(s.tools)) if chosen else None


def all_skills() -> list[Skill]:
    """The skills of every registered scenario: the glass box's weights for coding tasks."""
    return [skill for scenario in _REGISTERED.values() for skill in scenario.skills]

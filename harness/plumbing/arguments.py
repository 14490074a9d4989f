"""The argument checks public functions make first: one clear error naming the argument, what it got
and what it expects, instead of a crash three calls deeper or a wrong answer.

A public function states its checks once, above its signature, with `checked`; its body is then
the algorithm alone, as the lesson tells it:

>>> @checked(questions=(1, 1000))
... def script(questions: int, key_points: list[str]) -> int:
...     return questions * len(key_points)
>>> script(10**18, ["godot"])
Traceback (most recent call last):
...
ValueError: questions must be between 1 and 1000, got 1000000000000000000.
>>> script(3, "godot")
Traceback (most recent call last):
...
TypeError: key_points must be a list of strings, got the string 'godot'; wrap it: ['godot'].
"""

import dataclasses
import functools
import inspect
import math
import os
import sys
import types
import typing
from collections.abc import Callable, Collection, Iterable, Mapping
from numbers import Integral, Real


def shown(value) -> str:
    """`value` as an error message shows it: its repr, cut to 60 characters."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def require_text(name: str, value, *, empty: bool = True) -> str:
    """`value` if it is a str (non-empty unless `empty`); else TypeError / ValueError naming
    `name`."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a string, got {type(value).__name__} {shown(value)}.")
    if not empty and not value.strip():
        raise ValueError(f"{name} must not be empty, got {value!r}.")
    return value


def require_non_empty_text(name: str, value) -> str:
    """`value` if it is a str with more than whitespace in it (a role, a task, a model id)."""
    return require_text(name, value, empty=False)


def require_optional_text(name: str, value) -> str | None:
    """None, or a str (see require_text)."""
    return None if value is None else require_text(name, value)


def _iterable(name: str, value, expected: str):
    """Refuse a string, a mapping or a non-iterable where a list is expected; return `value`
    unchanged."""
    if isinstance(value, str):
        text = shown(value)
        raise TypeError(f"{name} must be {expected}, got the string {text}; wrap it: [{text}].")
    if isinstance(value, (bytes, Mapping)) or not isinstance(value, Iterable):
        raise TypeError(f"{name} must be {expected}, got {type(value).__name__} {shown(value)}.")
    return value


def require_list_of_text(name: str, value):
    """`value` if it is a list (or other collection) of str; a lone string is refused, never split
    into characters. A one-shot iterator passes unread: checking it would consume it."""
    _iterable(name, value, "a list of strings")
    if isinstance(value, Collection):
        for index, item in enumerate(value):
            if not isinstance(item, str):
                raise TypeError(
                    f"{name}[{index}] must be a string, got {type(item).__name__} {shown(item)}."
                )
    return value


def require_list(name: str, value, what: str = "items"):
    """`value` if it is a list, tuple, set or iterator; a string or a mapping is refused."""
    return _iterable(name, value, f"a list of {what}")


def require_int(name: str, value, low: int, high: int | None = None) -> int:
    """`value` if it is a whole number in [low, high]; bool and float are refused."""
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise TypeError(
            f"{name} must be a whole number, got {type(value).__name__} {shown(value)}."
        )
    if value < low or (high is not None and value > high):
        bounds = f"between {low} and {high}" if high is not None else f"at least {low}"
        raise ValueError(f"{name} must be {bounds}, got {value}.")
    return int(value)


def require_number(name: str, value, low: float, high: float | None = None) -> float:
    """`value` if it is a finite real number in [low, high]; NaN, infinities and bool are
    refused."""
    if isinstance(value, bool) or not isinstance(value, Real):
        raise TypeError(f"{name} must be a number, got {type(value).__name__} {shown(value)}.")
    if not math.isfinite(value) or value < low or (high is not None and value > high):
        # a bound of -inf is no bound: "at least -inf" would read as if infinities were allowed
        bounds = f" between {low} and {high}" if high is not None else f" at least {low}"
        bounds = "" if math.isinf(low) and high is None else bounds
        raise ValueError(f"{name} must be a finite number{bounds}, got {value}.")
    return float(value)


def optional(rule: Callable) -> Callable:
    """The rule `rule` for an argument that may also be None (None: the function's default)."""

    def none_or(name: str, value) -> None:
        if value is not None:
            rule(name, value)

    return none_or


def command_line_number(
    low: float, high: float, what: str, kind: type = float
) -> Callable[[str], float]:
    """An argparse `type=` for a number of `kind` (float or int) in [low, high], `what` saying what
    it counts: nan, inf and words are refused with a sentence argparse prints after the usage."""
    import argparse

    def number(text: str) -> float:
        try:
            return kind(require_number(what, kind(text), low, high))
        except ValueError:
            whole = "whole " if kind is int else ""
            raise argparse.ArgumentTypeError(
                f"{what} must be a {whole}number from {low:g} to {high:g}, got {shown(text)}"
            ) from None

    return number


def require_callable(name: str, value):
    """`value` if it can be called; else TypeError naming `name`."""
    if not callable(value):
        raise TypeError(f"{name} must be a function, got {type(value).__name__} {shown(value)}.")
    return value


def require_instance(name: str, value, kinds, expected: str):
    """`value` if it is one of `kinds`; else TypeError naming `name` and what is `expected`."""
    if not isinstance(value, kinds):
        raise TypeError(f"{name} must be {expected}, got {type(value).__name__} {shown(value)}.")
    return value


def require_contents(name: str, value) -> list:
    """`value` as a list of types.Content (a history); anything else is refused."""
    from google.genai import types

    require_list(name, value, "types.Content messages")
    if isinstance(value, Collection):
        for index, item in enumerate(value):
            require_instance(f"{name}[{index}]", item, types.Content, "a types.Content message")
    return value


def require_client(name: str, value):
    """`value` if it can make model calls (`value.models.generate_content`): a genai.Client from
    harness.connect(), or a stand-in with that method; else TypeError naming `name`."""
    if not callable(getattr(getattr(value, "models", None), "generate_content", None)):
        raise TypeError(
            f"{name} must be a client with models.generate_content, e.g. harness.connect(), "
            f"got {type(value).__name__} {shown(value)}."
        )
    return value


def require_mapping(name: str, value, what: str, kinds=object, expected: str = ""):
    """`value` if it is a dict (or other mapping) whose values are all `kinds`; else TypeError
    naming `name`, or `name[key]` for the first value of the wrong kind."""
    require_instance(name, value, Mapping, f"a dict of {what}")
    for key, item in value.items():
        require_instance(f"{name}[{key!r}]", item, kinds, expected or what)
    return value


def require_path(name: str, value) -> str | os.PathLike:
    """`value` if it is a non-empty path (str or pathlib.Path); else TypeError / ValueError
    naming `name`."""
    require_instance(name, value, (str, os.PathLike), "a file path (a str or a pathlib.Path)")
    if not str(value).strip():
        raise ValueError(f"{name} must be a file path, got the empty string; e.g. 'run.jsonl'.")
    return value


@functools.cache
def type_check(kind, bounds: tuple = (0, None)) -> Callable[[str, object], object] | None:
    """The check of a value against the annotation `kind`, as a function `check(name, value)`
    raising TypeError / ValueError naming `name`; None when the annotation says nothing to check
    (typing.Any, object, an unknown form). Understood: str, int, float, bool, None, X | Y, a
    callable, a list of str, a history (list[types.Content]), another list, tuple or iterable, a
    dict, a class. Numbers must be finite and within `bounds` (low, high; high None: no upper
    bound). Worked out once per annotation: `checked` functions and records check their arguments
    on every call (lesson 13's kernel made about 32,000 such checks, counted here 2026-12-04)."""
    # Each check calls the require_* function by its name when it runs, so that the module's
    # functions stay the ones that run (a test counts the calls of one).
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if kind is typing.Any or kind is object:
        return None
    if origin in (typing.Union, types.UnionType):
        kinds = [arg for arg in args if arg is not type(None)]
        allows_none = len(kinds) < len(args)
        if len(kinds) == 1:
            inner = type_check(kinds[0], bounds)
            if inner is None or not allows_none:
                return inner
            return lambda name, value: None if value is None else inner(name, value)
        classes = tuple(typing.get_origin(arg) or arg for arg in kinds)
        names = " or ".join(getattr(a, "__name__", str(a)) for a in args)

        def one_of(name, value):
            if not (isinstance(value, classes) or (value is None and allows_none)):
                raise TypeError(
                    f"{name} must be {names}, got {type(value).__name__} {shown(value)}."
                )

        return one_of
    if kind is bool:
        return lambda name, value: require_instance(name, value, bool, "True or False")
    if kind is int:
        return lambda name, value: require_int(name, value, *bounds)
    if kind is float:
        return lambda name, value: require_number(name, value, *bounds)
    if kind is str:
        return lambda name, value: require_text(name, value)
    if kind is Callable or origin is Callable:
        return lambda name, value: require_callable(name, value)
    if args and args[0] is str and _is_list(origin):
        return lambda name, value: require_list_of_text(name, value)
    if _is_list(origin) and args and args[0] is _content_class():
        return lambda name, value: require_contents(name, value)
    if _is_list(origin) or kind in (list, tuple):
        what = f"{getattr(args[0], '__name__', 'item')} items" if args else "items"
        item_check = type_check(args[0]) if args and origin is list else None

        def a_list(name, value):
            require_list(name, value, what)
            if item_check and isinstance(value, Collection):  # an iterator passes unread
                for index, item in enumerate(value):
                    item_check(f"{name}[{index}]", item)

        return a_list
    if origin is dict or kind is dict:
        return lambda name, value: require_instance(name, value, dict, "a dict")
    if (isinstance(origin, type) and issubclass(origin, Mapping)) or kind is Mapping:
        return lambda name, value: require_instance(
            name, value, Mapping, "a dict (or another mapping)"
        )
    if isinstance(kind, type):
        expected = f"a {'types.' if kind.__module__ == 'google.genai.types' else ''}{kind.__name__}"
        return lambda name, value: require_instance(name, value, kind, expected)
    return None


def _is_list(origin) -> bool:
    """Whether an annotation's origin is a list-like collection (list, tuple, Sequence,
    Iterable)."""
    return (
        isinstance(origin, type)
        and issubclass(origin, Iterable)
        and not issubclass(origin, (str, Mapping))
    )


def _content_class():
    """types.Content if google.genai is loaded (an annotation naming it has loaded it), else
    None."""
    return getattr(sys.modules.get("google.genai.types"), "Content", None)


def _rule(kind, rule) -> Callable | None:
    """The check `checked` makes of one argument: `rule` itself when it is a function, else the
    annotation `kind` within the bounds `rule` (low, high) or (0, None); None when nothing is said.
    """
    if callable(rule):
        return rule
    if kind is None:
        return None
    return type_check(kind, tuple(rule or (0, None)))


def checked(function=None, /, **rules):
    """Check a public function's arguments at its entry, each against its annotation; then run it.

    A rule given for an argument refines its annotation: `(low, high)` bounds a number (high None:
    no upper bound), and a function `rule(name, value)` (any `require_*` of this module) replaces
    the annotation's check. Without a rule, an `int` or a `float` must be finite and at least 0,
    `list[str]` is a list of strings, `list[types.Content]` a history, `X | None` None or an X
    (`type_check`). Defaults are not checked: the function's author chose them.

    >>> @checked(max_chars=(1, 10**9))
    ... def head(text: str, max_chars: int = 10) -> str:
    ...     return text[:max_chars]
    >>> head("abcdef", max_chars=0)
    Traceback (most recent call last):
    ...
    ValueError: max_chars must be between 1 and 1000000000, got 0.

    A public function that passes what it has checked to another calls that one's body directly,
    `head.unchecked(...)`: one call checks its input once.

    >>> head.unchecked("abcdef", 3)
    'abc'
    """
    if function is None:
        return lambda function: checked(function, **rules)
    parameters = inspect.signature(function).parameters
    if not parameters:  # nothing to check
        function.unchecked = function
        return function
    unknown = sorted(set(rules) - set(parameters))
    if unknown:
        raise TypeError(f"checked: {function.__qualname__} has no argument named {unknown[0]!r}.")
    positional = [
        name
        for name, spec in parameters.items()
        if spec.kind in (spec.POSITIONAL_ONLY, spec.POSITIONAL_OR_KEYWORD)
    ]
    # made at the first call: an annotation may name a class defined later
    checks, in_order = {}, []

    @functools.wraps(function)
    def entry(*args, **kwargs):
        if not checks:
            hints = typing.get_type_hints(function)
            checks.update((name, _rule(hints.get(name), rules.get(name))) for name in parameters)
            in_order.extend((name, checks[name]) for name in positional)
        for (name, check), value in zip(in_order, args):
            if check:
                check(name, value)
        for name, value in kwargs.items():
            if checks.get(name):
                checks[name](name, value)
        return function(*args, **kwargs)

    entry.unchecked = function
    return entry


def require_fields(record, **rules) -> None:
    """Check every field of the dataclass instance `record` against its annotation, as `checked`
    checks arguments (a rule refines a field's annotation), naming it as `Type.field`: a record the
    harness keeps, bills or writes must hold what it says. Call it first in `__post_init__`."""
    hints = _field_hints(type(record))
    for spec in dataclasses.fields(record):
        check = _rule(hints[spec.name], rules.get(spec.name))
        if check is not None:
            check(f"{type(record).__name__}.{spec.name}", getattr(record, spec.name))


@functools.cache
def _field_hints(record_type: type) -> dict:
    """A record type's annotations, evaluated once (each new record is checked against them)."""
    return typing.get_type_hints(record_type)

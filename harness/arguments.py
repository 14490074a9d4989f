"""The argument checks public functions make first: one clear error naming the argument, what it got
and what it expects, instead of a crash three calls deeper or a wrong answer.

>>> require_int("questions", 10**18, 1, 1000)
Traceback (most recent call last):
...
ValueError: questions must be between 1 and 1000, got 1000000000000000000.
>>> require_list_of_text("key_points", "godot")
Traceback (most recent call last):
...
TypeError: key_points must be a list of strings, got the string 'godot'; wrap it: ['godot'].
"""
import math
from collections.abc import Collection, Iterable, Mapping
from numbers import Integral, Real


def shown(value) -> str:
    """`value` as an error message shows it: its repr, cut to 60 characters."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def require_text(name: str, value, *, empty: bool = True) -> str:
    """`value` if it is a str (non-empty unless `empty`); else TypeError / ValueError naming `name`."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a string, got {type(value).__name__} {shown(value)}.")
    if not empty and not value.strip():
        raise ValueError(f"{name} must not be empty, got {value!r}.")
    return value


def require_optional_text(name: str, value) -> str | None:
    """None, or a str (see require_text)."""
    return None if value is None else require_text(name, value)


def _iterable(name: str, value, expected: str):
    """Refuse a string, a mapping or a non-iterable where a list is expected; return `value` unchanged."""
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
                raise TypeError(f"{name}[{index}] must be a string, got {type(item).__name__} {shown(item)}.")
    return value


def require_list(name: str, value, what: str = "items"):
    """`value` if it is a list, tuple, set or iterator; a string or a mapping is refused."""
    return _iterable(name, value, f"a list of {what}")


def require_int(name: str, value, low: int, high: int | None = None) -> int:
    """`value` if it is a whole number in [low, high]; bool and float are refused."""
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise TypeError(f"{name} must be a whole number, got {type(value).__name__} {shown(value)}.")
    if value < low or (high is not None and value > high):
        bounds = f"between {low} and {high}" if high is not None else f"at least {low}"
        raise ValueError(f"{name} must be {bounds}, got {value}.")
    return int(value)


def require_number(name: str, value, low: float, high: float | None = None) -> float:
    """`value` if it is a finite real number in [low, high]; NaN, infinities and bool are refused."""
    if isinstance(value, bool) or not isinstance(value, Real):
        raise TypeError(f"{name} must be a number, got {type(value).__name__} {shown(value)}.")
    if not math.isfinite(value) or value < low or (high is not None and value > high):
        bounds = f"between {low} and {high}" if high is not None else f"at least {low}"
        raise ValueError(f"{name} must be a finite number {bounds}, got {value}.")
    return float(value)


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

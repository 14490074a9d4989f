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
import dataclasses
import math
import os
import types
import typing
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


def require_client(name: str, value):
    """`value` if it can make model calls (`value.models.generate_content`): a genai.Client from
    harness.connect(), or a stand-in with that method; else TypeError naming `name`."""
    if not callable(getattr(getattr(value, "models", None), "generate_content", None)):
        raise TypeError(f"{name} must be a client with models.generate_content, e.g. harness.connect(), "
                        f"got {type(value).__name__} {shown(value)}.")
    return value


def require_mapping(name: str, value, what: str, kinds=object, expected: str = ""):
    """`value` if it is a dict (or other mapping) whose values are all `kinds`; else TypeError naming
    `name`, or `name[key]` for the first value of the wrong kind."""
    require_instance(name, value, Mapping, f"a dict of {what}")
    for key, item in value.items():
        require_instance(f"{name}[{key!r}]", item, kinds, expected or what)
    return value


def require_path(name: str, value) -> str | os.PathLike:
    """`value` if it is a non-empty path (str or pathlib.Path); else TypeError / ValueError naming `name`."""
    require_instance(name, value, (str, os.PathLike), "a file path (a str or a pathlib.Path)")
    if not str(value).strip():
        raise ValueError(f"{name} must be a file path, got the empty string; e.g. 'run.jsonl'.")
    return value


def require_type(name: str, value, kind) -> None:
    """Check `value` against the annotation `kind` (str, int, float, bool, None, X | Y, list[X],
    tuple, dict, a class); numbers must be finite and at least 0. TypeError / ValueError naming `name`."""
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if kind is typing.Any or kind is object:
        return
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return
        kinds = [arg for arg in args if arg is not type(None)]
        if len(kinds) == 1:
            return require_type(name, value, kinds[0])
        if any(isinstance(value, typing.get_origin(arg) or arg) for arg in kinds):
            return
        raise TypeError(f"{name} must be {' or '.join(getattr(a, '__name__', str(a)) for a in args)}, "
                        f"got {type(value).__name__} {shown(value)}.")
    if kind is bool:
        require_instance(name, value, bool, "True or False")
    elif kind is int:
        require_int(name, value, 0)
    elif kind is float:
        require_number(name, value, 0)
    elif kind is str:
        require_text(name, value)
    elif origin is list and args == (str,):
        require_list_of_text(name, value)
    elif origin in (list, tuple) or kind in (list, tuple):
        require_list(name, value, f"{getattr(args[0], '__name__', 'item')} items" if args else "items")
        if args and origin is list:
            for index, item in enumerate(value):
                require_type(f"{name}[{index}]", item, args[0])
    elif origin is dict or kind is dict:
        require_instance(name, value, Mapping, "a dict")
    elif isinstance(kind, type):
        require_instance(name, value, kind, f"a {kind.__name__}")


def require_fields(record) -> None:
    """Check every field of the dataclass instance `record` against its annotation (`require_type`),
    naming it as `Type.field`: records the harness writes and reads back must hold what they say."""
    hints = typing.get_type_hints(type(record))
    for spec in dataclasses.fields(record):
        require_type(f"{type(record).__name__}.{spec.name}", getattr(record, spec.name), hints[spec.name])


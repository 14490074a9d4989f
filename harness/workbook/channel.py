"""The one channel between the grader's checker and the student's function: plain data each way.

    >>> wire = encode((3, ["a"], {"k": 1.5}))
    >>> wire
    {'tuple': [3, {'list': ['a']}, {'dict': [['k', 1.5]]}]}
    >>> decode(wire)
    (3, ['a'], {'k': 1.5})

Each message is a length-prefixed JSON object (`send`, `receive`). A value crosses as a tree of
tagged plain data: None, bool, int, float and str as JSON has them; list, tuple, dict, set,
frozenset and bytes tagged; a google-genai model as its JSON dump and class name; a harness
dataclass as its fields and class name, a harness named tuple (13.2's `Memory`) as its items and
class name; a callable as a handle the other side calls back through
the channel (or, for a function of the course's own code or of builtins, by its import path).
`decode` only ever builds the exact built-in types, the models of google-genai and the dataclasses
of the harness, validated by their own constructors: whatever the other process sends, a float
subclass, a forged class or an object with a patched `__eq__` cannot come out of it. A value
`encode` cannot carry (a numpy number, an object of the student's own class) is `NotPlainData`.
"""

import base64
import builtins
import contextlib
import dataclasses
import importlib
import json
import os
import select
import struct
import types
from collections.abc import Callable

MAX_MESSAGE = 64 << 20  # bytes: a reply that big is not an answer, and must not fill the grader
HEADER = struct.Struct(">I")
SCALARS = (type(None), bool, int, float, str)
# Packages whose classes `decode` may build: the SDK's models and the course's own dataclasses,
# never the checks', the quizzes' nor the workbook's (they are not part of any contract).
MODEL_PACKAGES = ("google.genai.",)
DATACLASS_PACKAGES = ("harness.",)
NOT_SENT = ("harness.checks", "harness.quizzes", "harness.workbook")


class ChannelClosed(EOFError):
    """The other process ended or sent something that is not a message."""


class NotPlainData(TypeError):
    """A value the channel does not carry (not one of the types the contracts name)."""


class ForeignError(Exception):
    """An exception of a class this side does not build, raised on the other side (its name
    kept)."""


def send(fd: int, message: dict) -> None:
    data = json.dumps(message, separators=(",", ":")).encode()
    if len(data) > MAX_MESSAGE:
        raise NotPlainData(
            f"a value of {len(data) >> 20} MiB, more than the {MAX_MESSAGE >> 20} MiB carried"
        )
    view = memoryview(HEADER.pack(len(data)) + data)
    while view:
        view = view[os.write(fd, view) :]


def _read_exactly(fd: int, size: int) -> bytes:
    chunks, left = [], size
    while left:
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            raise ChannelClosed("the other process closed the channel")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def receive(fd: int) -> dict:
    header = _read_exactly(fd, HEADER.size)
    (size,) = HEADER.unpack(header)
    # most likely not a header at all: what was written there says who wrote it
    if size > MAX_MESSAGE:
        seen = header + (os.read(fd, 60) if select.select([fd], [], [], 0)[0] else b"")
        raise ChannelClosed(
            f"a message of {size >> 20} MiB, more than {MAX_MESSAGE >> 20} MiB ({seen!r})"
        )
    try:
        message = json.loads(_read_exactly(fd, size))
    except (ValueError, RecursionError) as error:
        raise ChannelClosed(f"a message that is not JSON ({type(error).__name__})") from None
    if not isinstance(message, dict) or not isinstance(message.get("op"), str):
        raise ChannelClosed("a message without an op")
    return message


def class_path(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def resolve(path: str, packages: tuple[str, ...]):
    """The object at `module.name` when the module is inside one of `packages`, else None."""
    if not isinstance(path, str) or not path.startswith(packages) or path.startswith(NOT_SENT):
        return None
    module, _, name = path.rpartition(".")
    try:
        return getattr(importlib.import_module(module), name, None)
    except ImportError:
        return None


def _is_model(value) -> bool:
    return type(value).__module__.startswith(MODEL_PACKAGES) and hasattr(value, "model_dump_json")


def _is_dataclass(value) -> bool:
    module = type(value).__module__
    return (
        dataclasses.is_dataclass(value)
        and module.startswith(DATACLASS_PACKAGES)
        and not module.startswith(NOT_SENT)
    )


def _is_named_tuple(value) -> bool:
    module = type(value).__module__
    return (
        isinstance(value, tuple)
        and hasattr(type(value), "_fields")
        and module.startswith(DATACLASS_PACKAGES)
        and not module.startswith(NOT_SENT)
    )


def function_path(fn) -> str | None:
    """`builtins.len`, `harness.tokens.approx_tokens`: a function the other side imports itself."""
    if not isinstance(fn, (types.FunctionType, types.BuiltinFunctionType)):
        return None
    path = f"{fn.__module__}.{fn.__qualname__}"
    if fn.__module__ == "builtins" and getattr(builtins, fn.__qualname__, None) is fn:
        return path
    return path if resolve(path, DATACLASS_PACKAGES) is fn else None


def encode(
    value,
    share: Callable[[Callable], int] | None = None,
    by_path: Callable = lambda fn: None,
    exact: bool = True,
):
    """`value` as tagged plain data. `share(fn)` gives a handle for a callable (None: callables are
    refused); `by_path(fn)` an import path the other side may use instead of a handle. `exact`
    refuses subclasses; the checker (not `exact`) also sends a set that keeps its own order (a
    check's set that iterates sorted), and the other side iterates it in that order."""

    def walk(v):
        kind = type(v)
        if kind in SCALARS:
            return v
        if kind is list:
            return {"list": [walk(x) for x in v]}
        if kind is tuple:
            return {"tuple": [walk(x) for x in v]}
        if kind is dict:
            return {"dict": [[walk(k), walk(x)] for k, x in v.items()]}
        if kind in (set, frozenset):
            return {kind.__name__: [walk(x) for x in v]}
        # the checker's, or one it sent
        if isinstance(v, set) and (kind is OrderedSet or not exact):
            return {"ordered_set": [walk(x) for x in v]}
        if kind is bytes:
            return {"bytes": base64.b64encode(v).decode()}
        if _is_model(v):
            return {"model": class_path(kind), "json": v.model_dump_json(exclude_unset=True)}
        if _is_dataclass(v):
            fields = {f.name: walk(getattr(v, f.name)) for f in dataclasses.fields(v)}
            return {"dataclass": class_path(kind), "fields": fields}
        if _is_named_tuple(v):
            return {"named_tuple": class_path(kind), "items": [walk(x) for x in v]}
        if kind is types.SimpleNamespace:
            return {"namespace": {k: walk(x) for k, x in vars(v).items()}}
        if callable(v) and share is not None:
            path = by_path(v)
            return {"function": path} if path else {"handle": share(v)}
        base = next(
            (
                b.__name__
                for b in kind.__mro__[1:]
                if b.__module__ == "builtins" and b is not object
            ),
            "",
        )
        raise NotPlainData(
            f"a {kind.__name__}{f' (a subclass of {base})' if base else ''}, not one of the plain"
            " types the exercise's contract names (int, float, str, list, tuple, dict, set, None,"
            " the google-genai types)"
        )

    return walk(value)


class OrderedSet(set):
    """A set that iterates in the order the sending side iterated it."""

    def __init__(self, items=()):
        items = list(items)
        super().__init__(items)
        self._order = items

    def __iter__(self):
        if len(self._order) != len(self) or not all(x in self for x in self._order):
            self._order = [x for x in dict.fromkeys(self._order) if x in self]
            self._order += [x for x in set.__iter__(self) if x not in self._order]
        return iter(self._order)


SEQUENCES = {
    "list": list,
    "tuple": tuple,
    "set": set,
    "frozenset": frozenset,
    "ordered_set": OrderedSet,
}


def decode(data, proxy: Callable[[int], Callable] | None = None, from_checker: bool = False):
    """The value `encode` made `data` from, built only from types this side trusts. `proxy(handle)`
    gives a callable for a handle (None: a callable in `data` is refused). Only data `from_checker`
    may name a function by its path or keep a set's order: the checker never takes a function,
    nor anything but the exact types, from the student's side."""

    def walk(d):
        if type(d) in SCALARS:
            return d
        if type(d) is not dict or len(d) not in (1, 2):
            raise ChannelClosed("a value that is not tagged plain data")
        tag, body = next(iter(d.items()))
        if len(d) == 2 and tag not in ("model", "dataclass", "named_tuple"):
            raise ChannelClosed(f"a value tagged {str(tag)[:40]!r} with more beside it")
        # the checker keeps no order it is sent: a plain set
        if tag in SEQUENCES and type(body) is list:
            kind = set if tag == "ordered_set" and not from_checker else SEQUENCES[tag]
            return kind(walk(x) for x in body)
        if tag == "dict" and type(body) is list:
            return {walk(k): walk(v) for k, v in body}
        if tag == "bytes" and type(body) is str:
            return base64.b64decode(body, validate=True)
        if tag == "namespace" and type(body) is dict:
            return types.SimpleNamespace(**{str(k): walk(v) for k, v in body.items()})
        if tag == "model" and type(d.get("json")) is str:
            cls = resolve(body, MODEL_PACKAGES)
            if isinstance(cls, type) and hasattr(cls, "model_validate_json"):
                return cls.model_validate_json(d["json"])
        if tag == "dataclass" and type(d.get("fields")) is dict:
            return _dataclass(body, {k: walk(v) for k, v in d["fields"].items()})
        if tag == "named_tuple" and type(d.get("items")) is list:
            return _named_tuple(body, [walk(x) for x in d["items"]])
        if tag == "function" and from_checker and type(body) is str:
            found = getattr(builtins, body[9:], None) if body.startswith("builtins.") else None
            found = found or resolve(body, DATACLASS_PACKAGES)
            if callable(found):
                return found
        if tag == "handle" and type(body) is int and proxy is not None:
            return proxy(body)
        raise ChannelClosed(f"a value tagged {str(tag)[:40]!r} that this side does not build")

    try:
        return walk(data)
    # unhashable keys, a model that does not validate
    except (
        TypeError,
        ValueError,
        RecursionError,
    ) as error:
        raise ChannelClosed(
            f"a value this side cannot build ({type(error).__name__}: {str(error)[:200]})"
        ) from None


def _dataclass(path: str, fields: dict):
    cls = resolve(path, DATACLASS_PACKAGES)
    if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
        raise ChannelClosed(f"{str(path)[:80]} is not a dataclass of the course")
    known = {f.name: f for f in dataclasses.fields(cls)}
    if set(fields) - set(known):
        raise ChannelClosed(
            f"fields {sorted(set(fields) - set(known))[:5]} that {cls.__name__} does not have"
        )
    value = cls(**{k: v for k, v in fields.items() if known[k].init})
    for name, field_value in fields.items():
        if not known[name].init:
            object.__setattr__(value, name, field_value)
    return value


def _named_tuple(path: str, items: list):
    cls = resolve(path, DATACLASS_PACKAGES)
    if not (isinstance(cls, type) and issubclass(cls, tuple) and hasattr(cls, "_fields")):
        raise ChannelClosed(f"{str(path)[:80]} is not a named tuple of the course")
    if len(items) != len(cls._fields):
        raise ChannelClosed(f"{len(items)} items for {cls.__name__}, which has {len(cls._fields)}")
    return cls(*items)


def error_data(error: BaseException) -> dict:
    return {
        "type": type(error).__name__,
        "module": type(error).__module__,
        "message": str(error)[:2000],
    }


def rebuilt_error(data: dict) -> Exception:
    """The exception the other side raised: the same class when it is a builtin or the course's
    own (MergeRefused), else a ForeignError subclass of the same name."""
    name, module, message = (
        str(data.get("type", "Error")),
        str(data.get("module", "")),
        str(data.get("message", "")),
    )
    cls = (
        getattr(builtins, name, None)
        if module == "builtins"
        else resolve(f"{module}.{name}", DATACLASS_PACKAGES)
    )
    if isinstance(cls, type) and issubclass(cls, Exception):
        # a constructor wanting more than a message
        with contextlib.suppress(TypeError, ValueError):
            return cls(message)
    return type(name if name.isidentifier() else "Error", (ForeignError,), {})(message)


def write_back(original, changed) -> None:
    """Make the argument `original` hold what the other side left in its copy (`changed`), in
    place."""
    if isinstance(original, list) and isinstance(changed, list):
        original[:] = changed
    elif (isinstance(original, dict) and isinstance(changed, dict)) or (
        isinstance(original, set) and isinstance(changed, (set, frozenset))
    ):
        original.clear()
        original.update(changed)
    elif (_is_model(original) or _is_dataclass(original)) and type(changed) is type(original):
        names = (
            type(original).model_fields
            if _is_model(original)
            else [f.name for f in dataclasses.fields(original)]
        )
        for name in names:
            try:
                object.__setattr__(original, name, getattr(changed, name))
            except (AttributeError, TypeError):
                pass  # a field that cannot be set: the change stays on the other side


class Peer:
    """One end of the channel: calls the other end and, while it waits, answers the other end's
    requests with `answer(message) -> reply`. `exact` and `from_checker` say how values are
    encoded and decoded on this end (see `encode`, `decode`); `caught` is what a served call may
    raise and have sent to the other end (the student's side: anything, SystemExit included; the
    checker's: Exception, so that the check's own time limit still stops it)."""

    def __init__(
        self,
        inp: int,
        out: int,
        answer: Callable[[dict], dict],
        exact: bool,
        from_checker: bool,
        by_path: Callable = lambda fn: None,
        caught: type[BaseException] = BaseException,
    ):
        self.inp, self.out, self.answer, self.caught = inp, out, answer, caught
        self.exact, self.from_checker, self.by_path = exact, from_checker, by_path
        self.handles: dict[int, Callable] = {}
        self._numbers: dict[int, int] = {}  # id(callable) -> its handle: one callable, one handle

    def share(self, fn: Callable) -> int:
        if id(fn) not in self._numbers:
            self._numbers[id(fn)] = len(self.handles) + 1
            self.handles[self._numbers[id(fn)]] = fn
        return self._numbers[id(fn)]

    def encode(self, value):
        return encode(value, self.share, self.by_path, self.exact)

    def decode(self, data):
        def proxy(handle: int) -> Callable:
            def through_the_channel(*args, **kwargs):
                return self.call({"handle": handle}, args, kwargs)

            return through_the_channel

        return decode(data, proxy, self.from_checker)

    def request(self, message: dict) -> dict:
        """Send `message`; answer the other end's requests until its reply comes (any other op)."""
        send(self.out, message)
        while True:
            reply = receive(self.inp)
            if reply["op"] not in ("call", "reference", "mine"):
                return reply
            send(self.out, self.answer(reply))

    def call(self, target, args: tuple, kwargs: dict, **extra):
        """Call `target` on the other end ("fn", or a handle) and return what it returned."""
        return self.outcome(self.request(self.calling(target, args, kwargs, **extra)), args, kwargs)

    def calling(self, target, args: tuple, kwargs: dict, **extra) -> dict:
        """The message that calls `target` with these arguments."""
        encoded = {"args": self.encode(list(args)), "kwargs": self.encode(kwargs)}
        return {"op": "call", "target": target, **encoded, **extra}

    def outcome(self, reply: dict, args, kwargs):
        """The value of a reply (raising what the other end raised); changed arguments written
        back."""
        if reply["op"] == "raise" and isinstance(reply.get("error"), dict):
            raise rebuilt_error(reply["error"])
        if reply["op"] != "return" or "value" not in reply:
            raise ChannelClosed(
                f"the other process answered {str(reply.get('op'))[:40]!r} to a call"
            )
        changed = reply.get("changed") if isinstance(reply.get("changed"), dict) else {}
        for key, data in changed.items():
            if isinstance(key, str) and key.isdigit() and int(key) < len(args):
                write_back(args[int(key)], self.decode(data))
            elif key in kwargs:
                write_back(kwargs[key], self.decode(data))
        return self.decode(reply["value"])

    def serve(self, fn: Callable, message: dict) -> dict:
        """The reply to a call of `fn`: its value (or what it raised), and the arguments it
        changed."""
        try:
            args, kwargs = self.decode(message.get("args")), self.decode(message.get("kwargs"))
            if type(args) is not list or type(kwargs) is not dict:
                raise ChannelClosed("a call without a list of arguments")
            before = {
                **{str(i): self.encode(a) for i, a in enumerate(args)},
                **{k: self.encode(v) for k, v in kwargs.items()},
            }
            value = self.encode(fn(*args, **kwargs))
            after = {
                **{str(i): self.encode(a) for i, a in enumerate(args)},
                **{k: self.encode(v) for k, v in kwargs.items()},
            }
        # whatever it was (SystemExit included), the other end is told
        except BaseException as error:
            return {"op": "raise", "error": error_data(error)}
        return {
            "op": "return",
            "value": value,
            "changed": {k: v for k, v in after.items() if v != before[k]},
        }

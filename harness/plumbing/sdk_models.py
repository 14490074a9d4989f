"""The SDK's Interactions client, spared building the same pydantic model class on every call.

google-genai's generated Interactions client (google/genai/_gaos/utils/serializers.py) calls
pydantic's `create_model` for every request it sends and every response it reads: `unmarshal`
builds `create_model("Unmarshaller", body=(Interaction, ...))`, `marshal_json` a "Marshaller",
and each generates the schema of the whole Interaction type again. That was 28 of the 31 ms of CPU
an `interactions.create` cost on the glass box, against 3 ms for a `generate_content` (google-genai
3.6.1, measured here 2026-12-03). The same types make the same models, so each is made once and
handed out after; what they validate and return is unchanged (tests/test_startup.py).

Applied by plumbing/startup.py (a lesson kernel's start, pytest) right after the serializers are
first imported, never earlier: only the lessons that use the Interactions client import it, and
they alone pay its 0.6 s of CPU.
"""

import functools
import importlib.abc
import importlib.util
import sys
import types

SERIALIZERS = "google.genai._gaos.utils.serializers"
MADE_AT_MOST = 256  # a handful of types in practice; a bound all the same


def _field_key(field: str, value) -> tuple:
    """A field (type, default) by its type's identity, or the model's config by its items."""
    if isinstance(value, tuple):
        return field, id(value[0]), value[1:]
    return field, tuple(value.items())


def _memoised(create_model):
    """`create_model` that makes each model once per (name, field types, config) and hands it out
    after."""
    made = {}

    @functools.wraps(create_model)
    def create(name, /, **fields):
        # By identity: the SDK passes the same type objects every call, and typing's equality
        # would take Union[A, B] for Union[B, A], whose validation order differs.
        key = (name, *(_field_key(field, value) for field, value in fields.items()))
        try:
            return made[key][1]
        except KeyError:
            pass
        except TypeError:  # an unhashable default or config value: made fresh, as the SDK does
            return create_model(name, **fields)
        model = create_model(name, **fields)
        if len(made) < MADE_AT_MOST:
            made[key] = fields, model  # the fields kept, so that their ids stay theirs
        return model

    create.memoised, create.made = True, made
    return create


def memoise_models(serializers: types.ModuleType) -> None:
    """Each model the Interactions client's serializers make, made once (see the module's doc)."""
    if not getattr(serializers.create_model, "memoised", False):
        serializers.create_model = _memoised(serializers.create_model)


class _AfterImport(importlib.abc.MetaPathFinder):
    """Runs `then(module)` right after the module `name` is first executed; imports nothing."""

    def __init__(self, name: str, then):
        self.name, self.then = name, then

    def find_spec(self, fullname, path=None, target=None):
        if fullname != self.name:
            return None
        sys.meta_path.remove(self)  # once, and so that the real finders answer the lookup below
        spec = importlib.util.find_spec(fullname)
        if spec is not None and spec.loader is not None:
            execute = spec.loader.exec_module

            def exec_module(module):
                execute(module)
                self.then(module)

            spec.loader.exec_module = exec_module
        return spec


def when_imported(name: str, then) -> None:
    """`then(module)` now if the module `name` is imported, else right after it is."""
    if name in sys.modules:
        then(sys.modules[name])
    elif not any(isinstance(f, _AfterImport) and f.name == name for f in sys.meta_path):
        sys.meta_path.insert(0, _AfterImport(name, then))


def memoise_when_imported() -> None:
    """The Interactions client's models made once, from its first import on."""
    when_imported(SERIALIZERS, memoise_models)

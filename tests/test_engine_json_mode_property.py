"""Property: whatever the schema and the prompt, the JSON-mode answer validates against the schema.

A seeded generator makes schemas (nested objects, arrays with bounds, enums, nullables, unions,
`$ref`s, string formats, number ranges, property orderings) and renders each one in both of
Gemini's dialects: JSON Schema for `responseJsonSchema` and the OpenAPI subset for
`responseSchema`. Each is asked with a prompt drawn from a few shapes (counts, names, `key: value`,
questions), through the glass box's whole generateContent path, and the answer is checked with the
`jsonschema` package against the JSON Schema rendering (the OpenAPI one says the same thing), with
its formats checked as well. A failure prints the seed, the schema and the answer.
"""

import datetime
import json
import random

import jsonschema
import pytest

from harness.engine.server import generate

MODEL = "gemini-3.8-flash"
CASES = 300
NAMES = [
    "name",
    "title",
    "city",
    "rating",
    "price",
    "tags",
    "items",
    "description",
    "created_at",
    "contact",
    "score",
    "notes",
    "enabled",
    "level",
    "color",
    "year",
    "stars",
    "recipeName",
    "grade",
    "steps",
]
ENUMS = [
    ["low", "medium", "high"],
    ["a+", "a", "b"],
    ["Percussion", "String", "Brass"],
    ["yes", "no"],
    ["red", "green", "blue"],
]
FORMATS = ["date-time", "date", "time", "email", "uuid", "uri"]
PROMPTS = [
    "List {n} cookie recipes.",
    "Name a few cities: Paris, Lyon and Nice.",
    "rating: 4, color: green. Describe it.",
    "What is the level of the course? The course has 3 levels and 12 stars.",
    "Summarise this, please.",
    "List about 7 items for Ana, Bob and Chen, graded high.",
    "Book a table on 2027-05-01 at 19:30.",
    "Give me {n} tags",
    "",
    "Which color is it? It is blue.",
]


# --- the generator: an abstract schema, then its two renderings
# --------------------------------------


def node(rng: random.Random, depth: int):
    kinds = ["string", "integer", "number", "boolean", "enum", "format"]
    if depth < 3:
        kinds += ["object", "object", "array", "array", "nullable", "union"]
    kind = rng.choice(kinds)
    if kind == "string":
        bounds = {}
        if rng.random() < 0.3:
            bounds["minLength"] = rng.randint(0, 30)
        if rng.random() < 0.3:
            bounds["maxLength"] = bounds.get("minLength", 0) + rng.randint(1, 20)
        return ("string", bounds)
    if kind in ("integer", "number"):
        bounds = {}
        if rng.random() < 0.5:
            bounds["minimum"] = rng.randint(-5, 20)
        if rng.random() < 0.5:
            bounds["maximum"] = bounds.get("minimum", -5) + rng.randint(0, 30)
        return (kind, bounds)
    if kind == "enum":
        return ("enum", rng.choice(ENUMS))
    if kind == "format":
        return ("format", rng.choice(FORMATS))
    if kind == "object":
        names = rng.sample(NAMES, rng.randint(1, 4))
        props = [(name, node(rng, depth + 1)) for name in names]
        return (
            "object",
            props,
            sorted(rng.sample(names, rng.randint(0, len(names)))),
            rng.random() < 0.5,
        )
    if kind == "array":
        low = rng.choice([None, None, 0, 1, 2, 4])
        high = rng.choice([None, None, 1, 3, 6])
        if low is not None and high is not None and high < low:
            low, high = high, low
        return ("array", node(rng, depth + 1), low, high)
    if kind == "union":
        return ("union", [node(rng, depth + 1) for _ in range(rng.randint(2, 3))])
    return ("nullable", node(rng, depth + 1))


def as_json_schema(spec, defs: dict) -> dict:
    """The JSON Schema rendering (objects sometimes moved into $defs behind a $ref)."""
    kind = spec[0]
    if kind == "string":
        return {"type": "string", **spec[1]}
    if kind in ("integer", "number"):
        return {"type": kind, **spec[1]}
    if kind == "boolean":
        return {"type": "boolean"}
    if kind == "enum":
        return {"type": "string", "enum": spec[1]}
    if kind == "format":
        return {"type": "string", "format": spec[1]}
    if kind == "object":
        _, props, required, by_ref = spec
        schema = {
            "type": "object",
            "properties": {name: as_json_schema(p, defs) for name, p in props},
            "required": required,
        }
        if by_ref:
            name = f"Def{len(defs)}"
            defs[name] = schema
            return {"$ref": f"#/$defs/{name}"}
        return schema
    if kind == "array":
        schema = {"type": "array", "items": as_json_schema(spec[1], defs)}
        if spec[2] is not None:
            schema["minItems"] = spec[2]
        if spec[3] is not None:
            schema["maxItems"] = spec[3]
        return schema
    if kind == "union":
        return {"anyOf": [as_json_schema(branch, defs) for branch in spec[1]]}
    inner = as_json_schema(spec[1], defs)
    if "type" in inner and isinstance(inner["type"], str) and "enum" not in inner:
        return {**inner, "type": [inner["type"], "null"]}
    return {"anyOf": [inner, {"type": "null"}]}


def as_openapi(spec, rng: random.Random) -> tuple[dict, dict]:
    """(the OpenAPI-subset rendering, the JSON Schema it means); its objects get a shuffled
    propertyOrdering, which the answer's key order must follow."""
    kind = spec[0]
    if kind in ("string", "integer", "number", "boolean"):
        # Gemini's OpenAPI subset: ranges, no lengths here
        bounds = {} if kind == "string" else spec[1]
        return {"type": kind.upper(), **bounds}, {"type": kind, **bounds}
    if kind == "enum":
        return {"type": "STRING", "enum": spec[1]}, {"type": "string", "enum": spec[1]}
    if kind == "format":  # the subset's string formats: enum and date-time
        return {"type": "STRING", "format": "date-time"}, {"type": "string", "format": "date-time"}
    if kind == "object":
        _, props, required, _ = spec
        rendered = {name: as_openapi(p, rng) for name, p in props}
        ordering = rng.sample([name for name, _ in props], len(props))
        return (
            {
                "type": "OBJECT",
                "properties": {n: r[0] for n, r in rendered.items()},
                "required": required,
                "propertyOrdering": ordering,
            },
            {
                "type": "object",
                "properties": {n: r[1] for n, r in rendered.items()},
                "required": required,
                "x-order": ordering,
            },
        )
    if kind == "array":
        item, item_json = as_openapi(spec[1], rng)
        bounds = {
            key: value
            for key, value in (("minItems", spec[2]), ("maxItems", spec[3]))
            if value is not None
        }
        return {"type": "ARRAY", "items": item, **bounds}, {
            "type": "array",
            "items": item_json,
            **bounds,
        }
    if kind == "union":
        branches = [as_openapi(branch, rng) for branch in spec[1]]
        return {"anyOf": [b[0] for b in branches]}, {"anyOf": [b[1] for b in branches]}
    inner, inner_json = as_openapi(spec[1], rng)
    return {**inner, "nullable": True}, {"anyOf": [inner_json, {"type": "null"}]}


# --- the checks
# ------------------------------------------------------------------------------------


def ask(prompt: str, **config) -> object:
    body = {
        "contents": [{"role": "user", "parts": [{"text": prompt or "Go."}]}],
        "generationConfig": {"responseMimeType": "application/json", **config},
    }
    reply = generate(MODEL, body, "v1beta")
    return json.loads(reply["candidates"][0]["content"]["parts"][0]["text"])


def check_order(schema: dict, value) -> None:
    """Every object's keys come in its propertyOrdering (the OpenAPI rendering's `x-order`)."""
    if isinstance(value, dict) and "x-order" in schema:
        assert list(value) == schema["x-order"]
        for name, child in value.items():
            check_order(schema["properties"][name], child)
    elif isinstance(value, list) and "items" in schema:
        for child in value:
            check_order(schema["items"], child)


def check_formats(value, schema: dict, defs: dict) -> None:
    """date-time, date and time parse as ISO 8601 (jsonschema checks date-time only with an
    extra)."""
    if "$ref" in schema:
        schema = defs[schema["$ref"].rsplit("/", 1)[1]]
    if isinstance(value, str) and schema.get("format") in ("date-time", "date", "time"):
        parse = {
            "date-time": datetime.datetime.fromisoformat,
            "date": datetime.date.fromisoformat,
            "time": datetime.time.fromisoformat,
        }[schema["format"]]
        parse(value)
    if schema.get("anyOf"):  # the value fits one branch at least: a branch whose formats it passes
        fits = 0
        for branch in schema["anyOf"]:
            try:
                check_formats(value, branch, defs)
                fits += 1
            except ValueError:
                pass
        assert fits, f"{value!r} fits no branch of {schema}"
    if isinstance(value, dict):
        for name, child in value.items():
            check_formats(child, schema.get("properties", {}).get(name, {}), defs)
    if isinstance(value, list):
        for child in value:
            check_formats(child, schema.get("items", {}), defs)


def strings(value):
    if isinstance(value, str):
        yield value
    for child in (
        value.values() if isinstance(value, dict) else value if isinstance(value, list) else []
    ):
        yield from strings(child)


def validate(value, schema: dict, context: str) -> None:
    validator = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(value)]
    assert not errors, (
        f"{context}\nschema: {json.dumps(schema)}\nanswer: {json.dumps(value)}\n{errors[:3]}"
    )
    assert not any(text.startswith("Noted") for text in strings(value)), context


@pytest.mark.parametrize("seed", range(CASES))
def test_every_answer_validates_against_its_json_schema(seed):
    rng = random.Random(seed)
    spec, defs = node(rng, 0), {}
    schema = as_json_schema(spec, defs)
    if defs:
        schema = (
            {**schema, "$defs": defs}
            if "$ref" not in schema
            else {"$ref": schema["$ref"], "$defs": defs}
        )
    prompt = rng.choice(PROMPTS).format(n=rng.randint(0, 12))
    value = ask(prompt, responseJsonSchema=schema)
    validate(value, schema, f"seed {seed}, prompt {prompt!r}")
    check_formats(value, schema, defs)


@pytest.mark.parametrize("seed", range(CASES))
def test_every_answer_validates_against_its_openapi_schema_in_its_order(seed):
    rng = random.Random(10_000 + seed)
    openapi, meaning = as_openapi(node(rng, 0), rng)
    prompt = rng.choice(PROMPTS).format(n=rng.randint(0, 12))
    value = ask(prompt, responseSchema=openapi)
    validate(value, meaning, f"seed {seed}, prompt {prompt!r}, sent {json.dumps(openapi)}")
    check_order(meaning, value)
    check_formats(value, meaning, {})


@pytest.mark.parametrize("n", [1, 2, 5, 12])
def test_a_top_level_list_asked_with_a_count_has_that_many_items_within_its_bounds(n):
    for low, high in [(None, None), (3, None), (None, 4), (2, 6)]:
        schema = {
            "type": "array",
            "items": {"type": "object", "properties": {"recipe_name": {"type": "string"}}},
        }
        schema.update({k: v for k, v in (("minItems", low), ("maxItems", high)) if v is not None})
        expected = max(n, low or 0) if high is None else min(max(n, low or 0), high)
        assert len(ask(f"List {n} cookie recipes.", responseJsonSchema=schema)) == expected


KEYWORDS = [
    "minItems",
    "maxItems",
    "minLength",
    "maxLength",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "enum",
    "const",
    "type",
    "format",
    "items",
    "prefixItems",
    "properties",
    "anyOf",
    "oneOf",
    "allOf",
    "$ref",
    "required",
    "propertyOrdering",
    "nullable",
    "default",
    "$defs",
]
JUNK = ["x", -1, 1.5, [], {}, True, [1], {"a": 1}, 10**12, "NaN", [None], [{"type": 7}]]


@pytest.mark.parametrize("keyword", KEYWORDS)
def test_a_schema_keyword_holding_anything_is_an_answer_or_a_400_naming_it(keyword):
    from harness.engine.wire import WireError

    for junk in JUNK:
        for schema in (
            {"type": "array", "items": {"type": "integer", keyword: junk}},
            {"type": "object", "properties": {"a": {"type": "string", keyword: junk}}},
            {"type": "string", keyword: junk},
        ):
            try:
                ask("List 3 things, rating: 4", responseJsonSchema=schema)
            except WireError as err:  # anything else (a 500 on the wire) fails the test
                assert err.code == 400 and keyword in err.message, (schema, err.message)


@pytest.mark.parametrize(
    "prompt",
    [
        "x" * 100_000,
        "ab-" * 40_000,
        "X = {" * 20_000,
        "Ann " * 30_000,
        "in Oslo, " * 20_000,
        "keys " + " and " * 3_000,
        "2020-" * 30_000,
    ],
)
def test_a_pathological_prompt_is_read_in_linear_time(prompt):
    import time

    from harness.engine.compat.json_fill import fill
    from harness.engine.compat.json_prompt import Prompt, described_schema

    schema = {
        "type": "array",
        "items": {
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "city": {"type": "string"},
                "count": {"type": "integer"},
            },
        },
    }
    started = time.process_time()  # CPU, not wall: a loaded machine must not fail it
    described_schema(prompt)
    fill(schema, Prompt(prompt))
    # each took 12-50 s when a regex or a slice ran per position
    assert time.process_time() - started < 2

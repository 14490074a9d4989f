"""JSON mode as a model does it: the answer fits the schema, and its values come from the prompt.

Each rule of harness/engine/compat/json_fill.py and json_prompt.py, asked through the unmodified SDK
(so the schemas are the ones it makes from pydantic models, list[Model], TypedDict, Enum and
Literal).
"""

import datetime
import enum
import json
import typing

import pytest
import typing_extensions
from google.genai import types
from pydantic import BaseModel, Field, TypeAdapter

MODEL = "gemini-3.8-flash"


class Ingredient(BaseModel):
    name: str = Field(description="Name of the ingredient.")
    amount: str


class Recipe(BaseModel):
    recipe_name: str
    ingredients: list[Ingredient]
    rating: int | None = None


class Instrument(enum.Enum):
    PERCUSSION = "Percussion"
    STRING = "String"
    BRASS = "Brass"


def ask(client, prompt, schema=None, mime="application/json", **config):
    if schema is not None:
        config["response_schema"] = schema
    return client.models.generate_content(
        model=MODEL,
        contents=prompt,
        config=types.GenerateContentConfig(response_mime_type=mime, **config),
    )


def strings_in(value):
    if isinstance(value, str):
        yield value
    for child in (
        value.values() if isinstance(value, dict) else value if isinstance(value, list) else []
    ):
        yield from strings_in(child)


# --- lists: a top-level array, as many items as asked ---------------------------------------------


def test_a_list_of_models_asked_with_a_count_has_that_many_items(glass_box):
    reply = ask(glass_box, "List 3 popular cookie recipes", list[Recipe])
    recipes = TypeAdapter(list[Recipe]).validate_json(reply.text)
    assert len(recipes) == 3 and isinstance(reply.parsed, list)
    assert len({recipe.recipe_name for recipe in recipes}) == 3  # each item its own name
    assert recipes[0].recipe_name == "Popular cookie recipe 1"
    assert all(recipe.ingredients for recipe in recipes)  # an array has an item unless forbidden


@pytest.mark.parametrize(
    "prompt, count",
    [
        ("List a few cookie recipes.", 3),
        ("List about 10 cookie recipes", 10),
        ("Give me a couple of cookie recipes.", 2),
        ("Suggest seven cookie recipes.", 7),
        ("A cookie recipe, please.", 1),
    ],
)
def test_the_count_words_of_the_prompt_set_the_length(glass_box, prompt, count):
    assert len(json.loads(ask(glass_box, prompt, list[Recipe]).text)) == count


def test_min_and_max_items_bound_the_count_asked(glass_box):
    schema = {"type": "ARRAY", "items": {"type": "STRING"}, "minItems": 2, "maxItems": 4}
    assert len(json.loads(ask(glass_box, "List 9 rivers.", schema).text)) == 4
    assert len(json.loads(ask(glass_box, "Name one river.", schema).text)) == 2


def test_a_list_of_names_takes_the_names_the_prompt_lists(glass_box):
    class Person(typing_extensions.TypedDict):
        name: str
        age: int

    people = json.loads(
        ask(glass_box, "Extract the people: Alice is 30, Bob and Carol are 41.", list[Person]).text
    )
    assert [person["name"] for person in people] == ["Alice", "Bob", "Carol"]


def test_no_value_is_the_readers_acknowledgement(glass_box):
    reply = ask(
        glass_box, "List a few imaginative cookie recipes with their main ingredients", list[Recipe]
    )
    assert not any(text.startswith("Noted") for text in strings_in(json.loads(reply.text)))


def test_a_question_answered_from_the_window_fills_a_free_text_field(glass_box):
    class Answer(BaseModel):
        answer: str

    reply = ask(glass_box, "The shop opens at 9 am. When does the shop open?", Answer)
    assert reply.parsed.answer == "The shop opens at 9 am."


def test_a_schema_spelled_out_in_the_prompt_is_answered_without_a_response_schema(glass_box):
    prompt = (
        "List a few popular cookie recipes using this JSON schema:\n\n"
        "Recipe = {'recipe_name': str}\nReturn: list[Recipe]"
    )
    value = json.loads(ask(glass_box, prompt).text)
    assert value == [{"recipe_name": f"Popular cookie recipe {i}"} for i in (1, 2, 3)]


def test_keys_named_in_the_prompt_make_the_object_without_a_response_schema(glass_box):
    prompt = "Give me a JSON object with the keys name, city and age for Alice, 30, from Paris."
    assert json.loads(ask(glass_box, prompt).text) == {"name": "Alice", "city": "Paris", "age": 30}
    assert json.loads(ask(glass_box, "Tell me a joke.").text) == {"answer": "Tell me a joke."}
    told = ask(
        glass_box,
        "Bob is 52 and lives in Oslo.",
        system_instruction="Reply in JSON with the keys name and age.",
    )
    assert json.loads(told.text) == {"name": "Bob", "age": 52}


# --- enums
# -----------------------------------------------------------------------------------------


def test_an_enum_answers_the_member_the_prompt_names_else_the_first(glass_box):
    assert (
        ask(glass_box, "Is a trumpet percussion or brass? It is brass.", Instrument).parsed
        == Instrument.BRASS
    )
    assert (
        json.loads(ask(glass_box, "The trumpet is a Brass instrument.", Instrument).text) == "Brass"
    )
    assert (
        json.loads(ask(glass_box, "What is the category of this instrument?", Instrument).text)
        == "Percussion"
    )


def test_text_x_enum_answers_one_member_as_plain_text(glass_box):
    reply = ask(glass_box, "A cello has strings: String, I think.", Instrument, mime="text/x.enum")
    assert reply.text == "String" and reply.parsed == Instrument.STRING


def test_text_x_enum_follows_a_json_schema_ref_to_its_enum(glass_box):
    schema = {
        "$ref": "#/$defs/Instrument",
        "$defs": {"Instrument": {"type": "string", "enum": ["Strings", "Brass"]}},
    }
    assert (
        ask(glass_box, "It is brass.", mime="text/x.enum", response_json_schema=schema).text
        == "Brass"
    )


def test_a_literal_and_an_enum_inside_a_list_stay_members(glass_box):
    class Graded(typing_extensions.TypedDict):
        recipe_name: str
        grade: typing.Literal["a+", "a", "b"]

    prompt = "List about 4 cookie recipes, grade them based on popularity"
    graded = json.loads(ask(glass_box, prompt, list[Graded]).text)
    assert len(graded) == 4 and {item["grade"] for item in graded} <= {"a+", "a", "b"}
    assert (
        json.loads(ask(glass_box, "Pick one: x or y. I pick y.", typing.Literal["x", "y"]).text)
        == "x"
    )


def test_an_enum_member_spelled_like_an_article_needs_its_name(glass_box):
    schema = {"type": "OBJECT", "properties": {"grade": {"type": "STRING", "enum": ["b", "a"]}}}
    assert json.loads(ask(glass_box, "Give a cookie a grade.", schema).text) == {"grade": "b"}
    assert json.loads(ask(glass_box, "Record it with grade: a", schema).text) == {"grade": "a"}


# --- numbers, booleans, formats
# --------------------------------------------------------------------


def test_numbers_come_from_the_prompt_and_stay_in_range(glass_box):
    schema = {
        "type": "OBJECT",
        "properties": {
            "stars": {"type": "INTEGER", "minimum": 1, "maximum": 5},
            "price": {"type": "NUMBER"},
            "pages": {"type": "INTEGER"},
            "level": {"type": "INTEGER", "minimum": 3, "maximum": 9},
        },
    }
    value = json.loads(
        ask(glass_box, "A book of 320 pages, price: 12.5, rated 9 stars.", schema).text
    )
    assert value == {"stars": 5, "price": 12.5, "pages": 320, "level": 6}


def test_a_number_property_takes_the_next_number_no_count_or_property_took(glass_box):
    class Person(BaseModel):
        name: str
        age: int

    assert ask(glass_box, "Extract it: John Smith is 42 years old.", Person).parsed == Person(
        name="John Smith", age=42
    )
    meals = json.loads(
        ask(
            glass_box,
            "List 3 recipes under 500 calories",
            {
                "type": "ARRAY",
                "items": {
                    "type": "OBJECT",
                    "properties": {
                        "recipe_name": {"type": "STRING"},
                        "calories": {"type": "INTEGER"},
                    },
                },
            },
        ).text
    )
    # the 3 is the list's count, not a value
    assert [meal["calories"] for meal in meals] == [
        500,
        500,
        500,
    ]


def test_a_number_shown_out_of_range_is_brought_into_it(glass_box):
    for bounds, expected in [
        ({"minimum": 8}, 8),
        ({"maximum": 2}, 2),
        ({"minimum": 1, "maximum": 9}, 4),
    ]:
        schema = {"type": "OBJECT", "properties": {"rating": {"type": "INTEGER", **bounds}}}
        assert json.loads(ask(glass_box, "rating: 4", schema).text)["rating"] == expected


def test_a_boolean_is_true_only_when_shown_so(glass_box):
    schema = {
        "type": "OBJECT",
        "properties": {"vegan": {"type": "BOOLEAN"}, "baked": {"type": "BOOLEAN"}},
    }
    assert json.loads(ask(glass_box, "A cookie. vegan: yes", schema).text) == {
        "vegan": True,
        "baked": False,
    }


def test_date_time_and_other_formats_are_valid_and_use_a_date_shown(glass_box):
    schema = {
        "type": "object",
        "properties": {
            "when": {"type": "string", "format": "date-time"},
            "day": {"type": "string", "format": "date"},
            "contact": {"type": "string", "format": "email"},
            "id": {"type": "string", "format": "uuid"},
        },
    }
    value = json.loads(
        ask(glass_box, "Book the room on 2027-03-14 at 15:30.", response_json_schema=schema).text
    )
    assert datetime.datetime.fromisoformat(value["when"]) == datetime.datetime(
        2027, 3, 14, 15, 30, tzinfo=datetime.timezone.utc
    )
    assert value["day"] == "2027-03-14" and "@" in value["contact"] and len(value["id"]) == 36


@pytest.mark.parametrize(
    "said, clock",
    [
        ("at 7:05 pm", "19:05:00"),
        ("at 12:30 am", "00:30:00"),
        ("at 19:30", "19:30:00"),
        ("some time", "00:00:00"),
    ],
)
def test_a_time_format_reads_the_clock_time_shown(glass_box, said, clock):
    schema = {"type": "string", "format": "time"}
    assert json.loads(ask(glass_box, f"Meet {said}.", response_json_schema=schema).text) == clock


def test_property_ordering_and_nullable_are_honoured(glass_box):
    schema = {
        "type": "OBJECT",
        "propertyOrdering": ["b", "a"],
        "properties": {"a": {"type": "STRING", "nullable": True}, "b": {"type": "INTEGER"}},
    }
    value = json.loads(ask(glass_box, "Anything.", schema).text)
    assert list(value) == ["b", "a"] and value["a"] is None  # a nullable the prompt says nothing of
    assert json.loads(ask(glass_box, "Note it with a: hello", schema).text) == {
        "b": 0,
        "a": "hello",
    }


def test_people_take_the_names_and_places_the_names_after_in(glass_box):
    class Address(BaseModel):
        city: str
        zip_code: str | None = None

    class Person(BaseModel):
        name: str
        home: Address

    people = TypeAdapter(list[Person]).validate_json(
        ask(
            glass_box, "Extract the people: Alice and Bob; Alice lives in Paris.", list[Person]
        ).text
    )
    assert [(p.name, p.home.city, p.home.zip_code) for p in people] == [
        ("Alice", "Paris", None),
        ("Bob", "Person 2 city", None),
    ]


# --- the other surfaces reach the same rules
# -------------------------------------------------------


def test_the_interactions_api_fills_a_pydantic_json_schema(glass_box):
    reply = glass_box.interactions.create(
        model=MODEL,
        input="List 2 cookie recipes",
        response_format={
            "type": "text",
            "mime_type": "application/json",
            "schema": TypeAdapter(list[Recipe]).json_schema(),
        },
    )
    recipes = TypeAdapter(list[Recipe]).validate_json(reply.steps[-1].content[0].text)
    assert [recipe.recipe_name for recipe in recipes] == ["Cookie recipe 1", "Cookie recipe 2"]


# --- a schema that asks for too much gets a bounded answer, quickly
# ---------------------------------


def test_a_schema_asking_for_billions_of_items_gets_a_bounded_answer(glass_box):
    import time

    schema = {
        "type": "array",
        "minItems": 10**9,
        "items": {
            "type": "array",
            "minItems": 10**9,
            "items": {"type": "string", "minLength": 10**9},
        },
    }
    started = time.process_time()  # CPU, not wall: a loaded machine must not fail it
    reply = ask(glass_box, "List them.", response_json_schema=schema, max_output_tokens=50)
    assert time.process_time() - started < 5
    # cut at the output cap
    assert reply.candidates[0].finish_reason == types.FinishReason.MAX_TOKENS
    recursive = {
        "$ref": "#/$defs/Node",
        "$defs": {"Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}}},
    }
    assert (
        json.loads(ask(glass_box, "A chain.", response_json_schema=recursive).text)["next"]["next"]
        is not None
    )

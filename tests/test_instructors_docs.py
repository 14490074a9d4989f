"""INSTRUCTORS.md's generated blocks (what the exercises test, common mistakes) match the checks:
a check, a hint or a fixture that changes without `python -m harness.checks.docs` fails here."""

from harness.checks import docs


def test_the_generated_blocks_of_instructors_md_are_up_to_date():
    text = docs.INSTRUCTORS.read_text(encoding="utf-8")
    assert "<!-- generated: exercises -->" in text and "<!-- generated: mistakes -->" in text
    assert docs.generated(text, docs.blocks(text)) == text, "run: python -m harness.checks.docs"


def test_every_exercise_and_every_fixture_has_its_row():
    table, mistakes = docs.exercise_table(), docs.mistakes_table()
    assert all(f"| {exercise_id} |" in table for exercise_id in docs.exercises())
    fixtures = docs._fixtures()
    assert (
        len(mistakes.splitlines()) == 2 + len(fixtures)
        and "| 5.3 |" in mistakes
        and "| 14.1 |" in mistakes
    )


def test_a_block_is_replaced_between_its_markers_only():
    text = (
        "a\n<!-- generated: x -->\nold\n<!-- end generated -->\nb\n<!-- generated: y"
        " -->\nkept\n<!-- end generated -->\n"
    )
    assert docs.generated(text, {"x": "new"}) == text.replace("old", "new")

"""`checked`, the one helper a public function states its argument checks with: the rules it reads,
and one call checking its input once (issue 26: `compact` checked its history four times)."""

import math

import pytest
from google.genai import types

from harness import compaction, context
from harness.plumbing import arguments
from harness.plumbing.arguments import checked, optional, require_client, require_number


@checked(count=(1, 10), share=(0, 1), client=optional(require_client))
def sample(text: str, count: int, share: float = 0.5, names: list[str] = (), client=None) -> str:
    return text * count


def test_the_annotation_and_the_rule_decide_together():
    assert sample("ab", 2) == "abab"
    for kwargs, error, words in (
        (dict(text=None, count=1), TypeError, "text must be a string, got NoneType None"),
        (dict(text="a", count=0), ValueError, "count must be between 1 and 10, got 0"),
        (dict(text="a", count=True), TypeError, "count must be a whole number"),
        (dict(text="a", count=1, share=math.nan), ValueError, "share must be a finite number"),
        (dict(text="a", count=1, names="godot"), TypeError, "wrap it: ['godot']"),
        (dict(text="a", count=1, client=5), TypeError, "client must be a client"),
    ):
        with pytest.raises(error, match=words.replace("[", r"\[").replace("]", r"\]")):
            sample(**kwargs)


def test_positional_and_keyword_arguments_are_checked_alike():
    with pytest.raises(ValueError, match="count"):
        sample("a", 11)
    with pytest.raises(ValueError, match="count"):
        sample("a", count=11)


def test_a_default_is_the_authors_choice_and_none_is_allowed_where_optional():
    assert sample("a", 1, client=None) == "a"


def test_unchecked_is_the_body_itself():
    assert sample.unchecked("a", 0) == ""
    assert sample.__name__ == "sample" and "count" in str(sample.__wrapped__.__annotations__)


def test_a_rule_for_an_argument_that_does_not_exist_is_refused_at_once():
    with pytest.raises(TypeError, match="no argument named 'size'"):
        checked(size=(1, 2))(lambda text: text)


def test_one_compact_call_checks_its_history_once(monkeypatch):
    """compact, task_text, safe_split_points and transcript_text_of each checked the history
    before: four checks of the same list in one call. Now the entry checks it, once."""
    seen = []
    real = arguments.require_contents

    def counting(name, value):
        seen.append(name)
        return real(name, value)

    monkeypatch.setattr(arguments, "require_contents", counting)
    say = context.as_content
    history = [
        say("user", "Fix the tests."),
        say("model", "a"),
        say("user", "b"),
        say("model", "c"),
        say("user", "d"),
        say("model", "e"),
        say("user", "f"),
    ]
    new, folded = compaction.compact(history, 1, lambda text: "**Changes made:** none")
    assert folded == 4 and seen == ["history"]
    compaction.safe_split_points(history)
    assert seen == ["history", "history"], "a public function called on its own still checks"


def test_a_history_of_the_wrong_things_names_the_message():
    with pytest.raises(TypeError, match=r"history\[1\] must be a types.Content"):
        compaction.compact(
            [context.as_content("user", "x"), types.Part.from_text(text="y")], 1, str
        )


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
def test_a_number_with_no_lower_bound_is_refused_without_naming_minus_infinity(value):
    """A bound of -inf is no bound: saying "at least -inf" would suggest infinities are allowed."""
    with pytest.raises(ValueError) as refused:
        require_number("threshold", value, -math.inf)
    assert str(refused.value) == f"threshold must be a finite number, got {value}."
    with pytest.raises(ValueError, match=r"must be a finite number at least 0, got"):
        require_number("threshold", value, 0)

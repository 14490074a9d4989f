"""The course tutor's glass box: search on a question, answer from the window, summarise on
request."""

from harness.engine.reader import DONT_KNOW
from harness.scenarios.course.glass_box import Tutor

TOOLS = [{"functionDeclarations": [{"name": "search_course"}]}]


def user(text):
    return {"role": "user", "parts": [{"text": text}]}


def test_a_question_triggers_a_search_with_the_question_only():
    parts = Tutor().act(
        {"tools": TOOLS, "contents": [user("I use Godot. Which block goes first?")]}
    )
    assert parts == [
        {"functionCall": {"name": "search_course", "args": {"query": "Which block goes first?"}}}
    ]


def test_after_the_search_it_answers_from_the_window_including_the_passages():
    request = {
        "tools": TOOLS,
        "contents": [
            user("Which block goes first?"),
            {
                "role": "model",
                "parts": [{"functionCall": {"name": "search_course", "args": {"query": "x"}}}],
            },
            {
                "role": "user",
                "parts": [
                    {
                        "functionResponse": {
                            "name": "search_course",
                            "response": {"output": "The system block goes first."},
                        }
                    }
                ],
            },
        ],
    }
    assert Tutor().act(request) == [{"text": 'From what I can see: "The system block goes first."'}]


def test_a_fact_out_of_the_window_is_not_recalled():
    request = {
        "tools": TOOLS,
        "contents": [
            user("What is my weak spot?"),
            {
                "role": "model",
                "parts": [{"functionCall": {"name": "search_course", "args": {"query": "x"}}}],
            },
            {
                "role": "user",
                "parts": [
                    {
                        "functionResponse": {
                            "name": "search_course",
                            "response": {"output": "Caches."},
                        }
                    }
                ],
            },
        ],
    }
    assert Tutor().act(request) == [{"text": DONT_KNOW}]


def test_a_statement_is_acknowledged_without_a_search():
    [part] = Tutor().act({"tools": TOOLS, "contents": [user("My weak spot is caching.")]})
    assert part["text"].startswith("Noted")


def test_a_summary_instruction_is_answered_by_the_summariser_not_a_search():
    request = {
        "tools": TOOLS,
        "contents": [
            user("My weak spot is caching."),
            {"role": "model", "parts": [{"text": "Noted."}]},
            user("Summarise under User facts, Topics discussed, Open questions. At most 40 words."),
        ],
    }
    [part] = Tutor().act(request)
    assert part["text"].startswith("**User facts:** My weak spot is caching.")

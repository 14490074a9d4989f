"""Which behaviour answers: a policy when functions are declared, else the summariser or the
reader."""

import pytest
from google.genai import types

from harness import MODEL
from harness.engine import reader, scenario

READ_FILE = types.Tool(
    function_declarations=[
        types.FunctionDeclaration(
            name="read_file",
            description="Read a file.",
            parameters=types.Schema(
                type="OBJECT", properties={"path": types.Schema(type="STRING")}
            ),
        )
    ]
)


SEARCH = types.Tool(
    function_declarations=[
        types.FunctionDeclaration(
            name="search_course",
            description="Search the course.",
            parameters=types.Schema(
                type="OBJECT", properties={"query": types.Schema(type="STRING")}
            ),
        )
    ]
)


@pytest.fixture
def policy(monkeypatch):
    """Stand-ins for the registered scenarios that record which one was shown what."""
    seen = []

    def install(name, function, tools):
        class StandIn(scenario.Scenario):
            def act(self, request):
                seen.append((self.name, request))
                return [{"functionCall": {"name": function, "args": {"path": "README.md"}}}]

        stand_in = StandIn()
        stand_in.name, stand_in.tools = name, frozenset(tools)
        monkeypatch.setitem(scenario._REGISTERED, name, stand_in)

    monkeypatch.setattr(scenario, "_REGISTERED", {})
    install("coding", "read_file", {"read_file"})
    install("tutor", "search_course", {"search_course"})
    return seen


def test_a_declared_tool_set_goes_to_the_scenario_that_registered_it(glass_box, policy):
    reply = glass_box.models.generate_content(
        model=MODEL,
        contents="Fix the package.",
        config=types.GenerateContentConfig(tools=[READ_FILE]),
    )
    assert [(c.name, c.args) for c in reply.function_calls] == [
        ("read_file", {"path": "README.md"})
    ]
    ((name, request),) = policy
    assert name == "coding"
    assert request["contents"][-1]["parts"][0]["text"] == "Fix the package."
    assert reply.usage_metadata.candidates_token_count > 0


def test_a_declared_search_course_goes_to_the_tutor(glass_box, policy):
    reply = glass_box.models.generate_content(
        model=MODEL,
        contents="What is a prefix cache?",
        config=types.GenerateContentConfig(tools=[SEARCH]),
    )
    assert [c.name for c in reply.function_calls] == ["search_course"]
    assert [name for name, _ in policy] == ["tutor"]


def test_without_tools_the_policy_is_not_asked(glass_box, policy):
    assert (
        glass_box.models.generate_content(model=MODEL, contents="What is in the README?").text
        == reader.DONT_KNOW
    )
    assert policy == []


def test_tools_no_scenario_registered_get_the_generic_caller_not_a_refusal(glass_box, monkeypatch):
    monkeypatch.setattr(scenario, "_REGISTERED", {})
    reply = glass_box.models.generate_content(
        model=MODEL,
        contents="Who wrote Hamlet?",
        config=types.GenerateContentConfig(tools=[READ_FILE]),
    )
    # the message asks for nothing a declared function does: the reader
    assert reply.text == reader.DONT_KNOW
    reply = glass_box.models.generate_content(
        model=MODEL,
        contents="Use read_file with path: README.md.",
        config=types.GenerateContentConfig(tools=[READ_FILE]),
    )
    assert [(c.name, c.args) for c in reply.function_calls] == [
        ("read_file", {"path": "README.md"})
    ]


class TestSummaryRequestsWinOverTools:
    INSTRUCTION = (
        "Write a checkpoint summary of the session above under the headings Objective, "
        "Files read, Changes made, Last tests."
    )

    def test_a_summary_asked_last_is_answered_by_the_summariser_even_with_tools(
        self, glass_box, policy
    ):
        history = [
            types.Content(
                role="user", parts=[types.Part.from_text(text="Fix the invoicing package.")]
            ),
            types.Content(
                role="model", parts=[types.Part.from_text(text="Reading the README first.")]
            ),
            types.Content(role="user", parts=[types.Part.from_text(text=self.INSTRUCTION)]),
        ]
        response = glass_box.models.generate_content(
            model=MODEL, contents=history, config=types.GenerateContentConfig(tools=[READ_FILE])
        )
        assert policy == [] and "**Objective:**" in response.text

    def test_an_old_summary_in_the_first_message_does_not_hijack_the_agent(self, glass_box, policy):
        head = "Fix the invoicing package.\n\n[Summary of 12 earlier messages]\n" + self.INSTRUCTION
        history = [
            types.Content(role="user", parts=[types.Part.from_text(text=head)]),
            # written by hand, so it carries the documented dummy thought signature
            types.Content(
                role="model",
                parts=[
                    types.Part(
                        function_call=types.FunctionCall(name="read_file", args={"path": "a"}),
                        thought_signature=b"skip_thought_signature_validator",
                    )
                ],
            ),
            types.Content(
                role="user",
                parts=[
                    types.Part.from_function_response(name="read_file", response={"output": "x"})
                ],
            ),
        ]
        glass_box.models.generate_content(
            model=MODEL, contents=history, config=types.GenerateContentConfig(tools=[READ_FILE])
        )
        assert [name for name, _ in policy] == ["coding"]

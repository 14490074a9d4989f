"""Thought signatures survive the harness: the agent loop, masking and compaction keep them on the
calls of the current turn, and a Gemini 3 run that compacts mid-task gets a 200 on every call.

Until the glass box issues and checks signatures, the run's calls carry none and the run test
holds trivially on them; the pure tests below use signatures made by hand.
"""

from google.genai import types

from harness.agent import AgentConfig, run_agent
from harness.checks.lesson04 import agent_history
from harness.checks.lesson05 import signed
from harness.compaction import compact, keep_signatures
from harness.masking import mask_observations

SIGNED_MODEL = "gemini-3.8-flash"  # signatures_required in harness.models


def _signatures(contents) -> list:
    return [p.thought_signature for c in contents for p in c.parts or [] if p.function_call]


def _history():
    return signed(
        agent_history(*[("read_file", {"path": f"f{n}.py"}, f"text {n} " * 40) for n in range(6)])
    )


def test_compact_keeps_the_signatures_of_the_kept_turns():
    history = _history()
    new, folded = compact(history, 2, lambda text: "**Changes made:** none")
    assert folded and _signatures(new[1:]) == _signatures(history[folded + 1 :])
    assert all(_signatures(new[1:]))


def test_masking_keeps_every_signature_and_changes_only_responses():
    history = _history()
    masked = mask_observations(history, {}, keep_last=2)
    assert masked[2].parts[0].function_response.response["output"].startswith("[masked")
    assert _signatures(masked) == _signatures(history) and all(_signatures(masked))


def test_keep_signatures_puts_each_back_on_its_call():
    history = _history()
    rebuilt = [
        types.Content(
            role=c.role,
            parts=[
                (
                    types.Part.from_function_call(
                        name=p.function_call.name, args=dict(p.function_call.args)
                    )
                    if p.function_call
                    else p
                )
                for p in c.parts
            ],
        )
        for c in history[1:]
    ]
    assert not any(_signatures(rebuilt))
    assert _signatures(keep_signatures(history[1:], rebuilt)) == _signatures(history[1:])


class _Recording:
    """A client whose generate_content records every request's contents and every response."""

    def __init__(self, client):
        self._client, self.models, self.requests, self.answers = client, self, [], []

    def generate_content(self, *, model, contents, config=None):
        response = self._client.models.generate_content(
            model=model, contents=contents, config=config
        )
        if isinstance(contents, list):  # the agent's calls; the summariser sends a str
            # The harness sends its history as plain dicts (harness.plumbing.client.plain): read
            # them back as Contents.
            self.requests.append(
                [types.Content.model_validate(c) if isinstance(c, dict) else c for c in contents]
            )
            self.answers.append(response.candidates[0].content.model_dump(exclude_none=True))
        return response


def test_a_gemini_3_run_that_compacts_mid_turn_gets_a_200_and_sends_every_call_as_returned(
    glass_box,
):
    client = _Recording(glass_box)
    # Any 400 (a call separated from its response, a signature missing) raises out of run_agent.
    report = run_agent(
        AgentConfig(model=SIGNED_MODEL, context_budget=2500, keep_recent_turns=3, masking=True),
        client=client,
    )
    assert report.status == "finished" and report.compactions
    # the head holds a summary
    after = [request for request in client.requests if request[0].parts[1:]]
    assert after, "no request was sent after a compaction"
    for request in client.requests:
        # the current turn: everything after the task (or the summary head)
        for content in request[1:]:
            # each call goes back exactly as the model returned it, signature included
            if content.role == "model":
                assert content.model_dump(exclude_none=True) in client.answers

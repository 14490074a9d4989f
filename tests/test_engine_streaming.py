"""Streams carry every candidate: with candidateCount (or OpenAI's n) each chunk holds a piece of
each, usage rides on every chunk, and each candidate's pieces join into that candidate's whole
answer."""

import pytest
from google.genai import types

from harness import MODEL
from harness.engine.streaming import chunks

PROMPT = (
    "The packing list reads: "
    + " ".join(f"item{i}" for i in range(30))
    + ". What does the packing list read?"
)


def test_a_stream_with_two_candidates_carries_both_to_the_end(glass_box):
    config = types.GenerateContentConfig(candidate_count=2)
    pieces = list(
        glass_box.models.generate_content_stream(model=MODEL, contents=PROMPT, config=config)
    )
    whole = glass_box.models.generate_content(model=MODEL, contents=PROMPT, config=config)
    assert len(pieces) > 2 and all(len(piece.candidates) == 2 for piece in pieces)
    for index in (0, 1):
        streamed = "".join(piece.candidates[index].content.parts[0].text for piece in pieces)
        assert streamed == whole.candidates[index].content.parts[0].text
        assert [p.candidates[index].finish_reason for p in pieces][-1] == types.FinishReason.STOP
    assert (
        pieces[-1].usage_metadata.candidates_token_count
        == whole.usage_metadata.candidates_token_count
    )


def test_candidates_of_different_lengths_each_end_on_their_own_last_piece():
    def candidate(index, text):
        return {
            "content": {"role": "model", "parts": [{"text": text}]},
            "finishReason": "STOP",
            "index": index,
        }

    response = {
        "candidates": [candidate(0, "one two three four five"), candidate(1, "one")],
        "usageMetadata": {"promptTokenCount": 3, "candidatesTokenCount": 6, "totalTokenCount": 9},
    }
    streamed = chunks(response, words=2)
    assert [[c["index"] for c in chunk["candidates"]] for chunk in streamed] == [[0, 1], [0], [0]]
    assert (
        streamed[0]["candidates"][1]["finishReason"] == "STOP"
        and "finishReason" not in streamed[0]["candidates"][0]
    )
    assert streamed[-1]["usageMetadata"] == response["usageMetadata"]
    assert all(chunk["usageMetadata"]["promptTokenCount"] == 3 for chunk in streamed)


def test_openai_n_streams_one_choice_per_candidate(glass_box):
    openai = pytest.importorskip("openai")
    from harness.engine.server import ensure_running

    client = openai.OpenAI(
        api_key="offline", base_url=ensure_running() + "/v1beta/openai/", max_retries=0
    )
    request = dict(model=MODEL, messages=[{"role": "user", "content": PROMPT}], n=2)
    whole = client.chat.completions.create(**request)
    pieces = list(client.chat.completions.create(stream=True, **request))
    for index in (0, 1):
        text = "".join(c.delta.content or "" for p in pieces for c in p.choices if c.index == index)
        assert text == whole.choices[index].message.content
    assert pieces[-1].usage == whole.usage

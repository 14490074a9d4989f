"""Embeddings on the glass box, through the SDK's `client.models.embed_content` and raw REST: the
documented dimensions, vectors that follow meanings (synonyms near, unknown names weak), and
Gemini's errors for what it refuses."""

import itertools
import json
import math

import pytest
from google.genai import errors, types

from harness.engine.embeddings import (
    EMBEDDING_MODEL,
    EMBEDDING_MODELS,
    FULL_DIMENSIONS,
    MAX_BATCH,
    cosine,
    vector,
    words,
)

PASSAGES = [
    "Water tomato plants at the root, early in the morning.",
    "A cat sleeps most of the day on a warm windowsill.",
    "Train schedules change on public holidays.",
]


def _embed(glass_box, contents, **config):
    reply = glass_box.models.embed_content(
        model=EMBEDDING_MODEL,
        contents=contents,
        config=types.EmbedContentConfig(**config) if config else None,
    )
    return [embedding.values for embedding in reply.embeddings]


def test_the_default_vector_has_3072_dimensions_and_unit_length(glass_box):
    [values] = _embed(glass_box, "What is the meaning of life?")
    assert len(values) == FULL_DIMENSIONS
    assert math.isclose(math.sqrt(sum(v * v for v in values)), 1.0, abs_tol=1e-4)


@pytest.mark.parametrize("size", [3, 10, 128, 768, 1536, 3072])  # the cookbook sends 3, 4 and 10
def test_a_smaller_vector_is_the_start_of_the_full_one(glass_box, size):
    [small] = _embed(glass_box, "Water the plants.", output_dimensionality=size)
    [full] = _embed(glass_box, "Water the plants.")
    assert len(small) == size and small == full[:size]


def test_several_contents_get_one_vector_each_in_order(glass_box):
    vectors = _embed(glass_box, PASSAGES, output_dimensionality=768)
    assert vectors == [vector(text, 768) for text in PASSAGES]


def test_the_same_text_always_gets_the_same_vector(glass_box):
    assert _embed(glass_box, "Same text.") == _embed(glass_box, "Same text.")


def test_a_retrieval_query_ranks_the_passage_that_shares_its_words_first(glass_box):
    [query] = _embed(
        glass_box,
        "When should I water my tomato plants?",
        task_type="RETRIEVAL_QUERY",
        output_dimensionality=768,
    )
    passages = _embed(
        glass_box, PASSAGES, task_type="RETRIEVAL_DOCUMENT", output_dimensionality=768
    )
    ranked = sorted(range(len(PASSAGES)), key=lambda i: -cosine(query, passages[i]))
    assert ranked[0] == 0
    assert cosine(query, passages[0]) > 0.5 > 0.2 > max(cosine(query, passages[i]) for i in (1, 2))


def test_similarity_grows_with_the_words_two_texts_share():
    base = "red apple green pear yellow lemon"
    shares = [
        cosine(vector(base), vector(other))
        for other in (
            "blue sky",
            "red apple",
            "red apple green pear",
            "red apple green pear yellow lemon",
        )
    ]
    assert shares == sorted(shares) and shares[-1] == pytest.approx(1.0)


def test_common_words_and_plurals_do_not_make_texts_alike():
    assert words("The plants of the garden") == ["plant", "garden"]
    assert cosine(vector("the cat is on the mat"), vector("the train is at the station")) < 0.2


def test_every_documented_task_type_is_accepted(glass_box):
    for task in (
        "SEMANTIC_SIMILARITY",
        "CLASSIFICATION",
        "CLUSTERING",
        "RETRIEVAL_DOCUMENT",
        "RETRIEVAL_QUERY",
        "CODE_RETRIEVAL_QUERY",
        "QUESTION_ANSWERING",
        "FACT_VERIFICATION",
    ):
        assert len(_embed(glass_box, "Hello.", task_type=task, output_dimensionality=128)[0]) == 128


@pytest.mark.parametrize("size", [-1, 3073, 10000])
def test_a_dimension_past_3072_is_a_400_that_names_the_limit(glass_box, size):
    with pytest.raises(errors.ClientError) as caught:
        _embed(glass_box, "Hello.", output_dimensionality=size)
    assert (
        caught.value.code == 400
        and "3072" in caught.value.message
        and str(size) in caught.value.message
    )


def test_an_unknown_task_type_is_proto_jsons_400(glass_box):
    with pytest.raises(errors.ClientError) as caught:
        _embed(glass_box, "Hello.", task_type="SUMMARISE")
    assert (
        caught.value.code == 400
        and "TaskType" in caught.value.message
        and "SUMMARISE" in caught.value.message
    )


@pytest.mark.parametrize("model", ["gemini-3.8-flash", "text-embedding-999"])
def test_a_model_that_does_not_embed_is_a_404(glass_box, model):
    with pytest.raises(errors.ClientError) as caught:
        glass_box.models.embed_content(model=model, contents="Hello.")
    assert caught.value.code == 404 and f"models/{model} is not found" in caught.value.message


def test_embed_content_over_rest_answers_one_embedding(post_json):
    status, body = post_json(
        f"/v1beta/models/{EMBEDDING_MODEL}:embedContent",
        {"content": {"parts": [{"text": "Hello there."}]}, "outputDimensionality": 256},
    )
    assert status == 200 and body["embedding"]["values"] == vector("Hello there.", 256)


def test_a_batch_request_for_another_model_is_a_400(post_json):
    status, body = post_json(
        f"/v1beta/models/{EMBEDDING_MODEL}:batchEmbedContents",
        {"requests": [{"model": "models/gemini-3.8-flash", "content": {"parts": [{"text": "x"}]}}]},
    )
    assert status == 400 and "must be the model of the batch" in body["error"]["message"]


def test_a_batch_over_the_limit_and_an_empty_text_are_400s(post_json):
    too_many = [{"content": {"parts": [{"text": f"text {i}"}]}} for i in range(MAX_BATCH + 1)]
    status, body = post_json(
        f"/v1beta/models/{EMBEDDING_MODEL}:batchEmbedContents", {"requests": too_many}
    )
    assert status == 400 and str(MAX_BATCH) in body["error"]["message"]
    status, body = post_json(
        f"/v1beta/models/{EMBEDDING_MODEL}:embedContent", {"content": {"parts": [{"text": ""}]}}
    )
    assert status == 400 and "required oneof field 'data'" in body["error"]["message"]


@pytest.mark.parametrize("model", EMBEDDING_MODELS)
def test_text_past_the_input_limit_is_not_read(model, post_json):
    limit = EMBEDDING_MODELS[model].input_token_limit
    # a token each
    head = " ".join(
        "".join(letters)
        for letters in itertools.islice(itertools.product("abcdefghij", repeat=4), limit)
    )
    status, body = post_json(
        f"/v1beta/models/{model}:embedContent",
        {"content": {"parts": [{"text": head + " extra words here"}]}},
    )
    assert status == 200 and body["embedding"]["values"] == vector(head)


def test_the_request_is_not_changed(post_json):
    request = {
        "content": {"parts": [{"text": "Keep me."}]},
        "taskType": "RETRIEVAL_DOCUMENT",
        "title": "T",
    }
    sent = json.loads(json.dumps(request))
    post_json(f"/v1beta/models/{EMBEDDING_MODEL}:embedContent", sent)
    assert sent == request


IMAGE = types.Part.from_bytes(data=b"\x89PNG not really an image", mime_type="image/png")


def test_the_multimodal_model_embeds_a_file_as_itself_sharing_nothing_with_text(glass_box):
    contents = [
        types.Content(parts=[part])
        for part in (IMAGE, IMAGE, types.Part(text="A picture of a cat."))
    ]
    reply = glass_box.models.embed_content(model="gemini-embedding-2", contents=contents)
    image, again, text = (embedding.values for embedding in reply.embeddings)
    assert image == again and len(image) == FULL_DIMENSIONS
    assert abs(cosine(image, text)) < 0.1


def test_the_text_model_refuses_a_file_and_names_the_multimodal_one(glass_box):
    with pytest.raises(errors.ClientError) as caught:
        glass_box.models.embed_content(model=EMBEDDING_MODEL, contents=[IMAGE])
    assert caught.value.code == 400 and "gemini-embedding-2" in caught.value.message


@pytest.mark.parametrize("model", ["text-embedding-004", "embedding-001"])
def test_a_shut_down_embedding_model_is_geminis_plain_404(glass_box, model):
    from harness.models import NOT_FOUND

    with pytest.raises(errors.ClientError) as caught:
        glass_box.models.embed_content(model=model, contents="What is the meaning of life?")
    assert caught.value.code == 404
    assert caught.value.message == NOT_FOUND.format(
        model=model, version="v1beta", method="batchEmbedContents"
    )


@pytest.mark.parametrize("model", EMBEDDING_MODELS)
def test_the_cookbooks_embedding_cells_run_with_either_dropdown_model(glass_box, model):
    """June 2026 quickstarts/Embeddings cells 15, 16, 37 and Get_started 111, 113, with MODEL_ID
    an embedder."""
    [single] = glass_box.models.embed_content(model=model, contents=["Hello world"]).embeddings
    cut = glass_box.models.embed_content(
        model=model,
        contents=["Hello world"],
        config=types.EmbedContentConfig(output_dimensionality=10),
    ).embeddings[0]
    assert (len(single.values), len(cut.values)) == (3072, 10) and cut.values == single.values[:10]
    reply = glass_box.models.embed_content(model=model, contents="What is the meaning of life?")
    assert len(reply.embeddings[0].values) == 3072


def test_every_word_of_the_table_is_in_one_concept_and_inflections_find_it():
    from harness.engine.embeddings import CONCEPTS, known

    listed = [
        word
        for line in CONCEPTS.read_text().splitlines()
        if line.strip() and not line.startswith("#")
        for word in line.split()
    ]
    assert len(listed) == len(set(listed)) > 1000
    assert [known(w) for w in ("scheduled", "running", "invoices", "bosses", "zorblax")] == [
        "schedule",
        "run",
        "invoice",
        "boss",
        None,
    ]


def test_synonyms_are_nearer_than_words_of_one_topic_which_are_nearer_than_unrelated_words():
    synonyms, same_topic, unrelated = (
        cosine(vector("invoice"), vector(other)) for other in ("bill", "price", "cat")
    )
    assert synonyms == pytest.approx(0.89, abs=0.03) and same_topic == pytest.approx(0.18, abs=0.05)
    assert abs(unrelated) < 0.05


def test_a_paraphrase_that_shares_no_word_finds_its_passage(glass_box):
    passage = "Employees who feel sick should stay home and tell their manager."
    question = "Must an ill worker remain at the house and inform the boss?"
    assert not set(words(passage)) & set(words(question))
    [query] = _embed(glass_box, question, task_type="RETRIEVAL_QUERY", output_dimensionality=768)
    passages = _embed(
        glass_box, PASSAGES + [passage], task_type="RETRIEVAL_DOCUMENT", output_dimensionality=768
    )
    assert max(range(len(passages)), key=lambda i: cosine(query, passages[i])) == len(PASSAGES)


def test_an_unknown_name_matches_only_itself_and_weighs_less_than_a_known_word():
    from harness.engine.embeddings import UNKNOWN

    assert abs(cosine(vector("Zorblax"), vector("Quennet"))) < 0.05
    both = vector("invoice Zorblax")
    assert cosine(both, vector("Zorblax")) == pytest.approx(
        UNKNOWN / math.hypot(1, UNKNOWN), abs=0.02
    )
    assert cosine(both, vector("invoice")) > cosine(both, vector("Zorblax"))

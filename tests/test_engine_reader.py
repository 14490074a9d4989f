"""The reader recalls a planted fact if and only if the fact is in the request."""

import random

from google.genai import types

from harness import MODEL
from harness.engine import reader

FACT = "The customer's account manager is Ingrid Solberg."
QUESTION = "Who is the customer's account manager?"
FILLER = ["Invoices are due within 30 days.", "Noted.", "Prices exclude VAT.", "Noted."]


def turns(*texts):
    return [
        types.Content(role="user" if i % 2 == 0 else "model", parts=[types.Part.from_text(text=t)])
        for i, t in enumerate(texts)
    ]


def reply(client, contents, system=None):
    config = types.GenerateContentConfig(system_instruction=system) if system else None
    return client.models.generate_content(model=MODEL, contents=contents, config=config).text


def test_the_dont_know_answer_is_one_fixed_sentence():
    assert reader.DONT_KNOW == "I don't know: nothing in what I was given says that."


def test_a_fact_in_an_earlier_turn_is_recalled(glass_box):
    answer = reply(glass_box, turns(FACT, "Noted.", *FILLER, QUESTION))
    assert "Ingrid Solberg" in answer


def test_a_fact_in_the_system_instruction_is_recalled(glass_box):
    assert "Ingrid Solberg" in reply(
        glass_box, turns(*FILLER, QUESTION), system="Known facts:\n- " + FACT
    )


def test_without_the_fact_it_says_it_does_not_know(glass_box):
    assert reply(glass_box, turns(*FILLER, QUESTION)) == reader.DONT_KNOW


def test_it_has_no_memory_of_earlier_requests(glass_box):
    reply(glass_box, turns(FACT, "Noted.", QUESTION))
    assert reply(glass_box, turns(*FILLER, QUESTION)) == reader.DONT_KNOW


def test_question_words_alone_do_not_count_as_a_match(glass_box):
    context = turns("Tell me what you know about this.", "Noted.", "What can you tell me about it?")
    assert reply(glass_box, context) == reader.DONT_KNOW


def test_earlier_questions_are_not_taken_for_answers(glass_box):
    assert reply(glass_box, turns(QUESTION, reader.DONT_KNOW, QUESTION)) == reader.DONT_KNOW


def test_a_statement_gets_a_short_acknowledgement_quoting_it(glass_box):
    answer = reply(glass_box, turns("My favourite colour is teal and I work nights in Bergen."))
    assert answer.startswith("Noted:") and "favourite colour is teal" in answer
    assert len(answer.split()) <= 12


def test_replies_stay_under_60_words_even_when_the_sentences_are_long(glass_box):
    long_fact = "The account manager " + " ".join(["really"] * 80) + " is Ingrid Solberg."
    answer = reply(
        glass_box, turns(long_fact, "Noted.", "Who is the account manager, and " + long_fact + "?")
    )
    assert len(answer.split()) < 60


def test_the_question_may_come_with_its_own_context(glass_box):
    assert "depot 4" in reply(glass_box, "Pallets leave from depot 4. Where do pallets leave from?")


def test_content_words_drop_stop_words_and_plurals():
    assert reader.content_words("What are the 2 glass invoices?") == ["2", "glass", "invoice"]


def test_a_fact_late_in_a_summary_line_is_recalled(glass_box):
    # The summariser joins a heading's items with "; ": each item must count as its own sentence.
    filler = "; ".join(f"The user asked about topic number {i} at length" for i in range(8))
    summary = f"**User facts:** {filler}; My badge colour is vermilion."
    assert "vermilion" in reply(glass_box, turns(summary, "Noted.", "What is my badge colour?"))


def _score_word_by_word(question_words, sentence):
    """The reader's matching rule spelled out: equal words, or the shorter (4+ letters) starting
    the longer."""

    def same(a, b):
        short, long = (a, b) if len(a) <= len(b) else (b, a)
        return short == long or (len(short) >= 4 and long.startswith(short))

    words = set(reader.content_words(sentence))
    return sum(1 for q in set(question_words) if any(same(q, w) for w in words))


def test_the_indexed_score_matches_the_rule_word_by_word():
    import random

    rng = random.Random(10)
    stems = [
        "park",
        "live",
        "car",
        "dog",
        "team",
        "blue",
        "invoice",
        "cache",
        "ab",
        "abcd",
        "abcde",
    ]
    for _ in range(3_000):

        def word():
            stem = rng.choice(stems)
            return stem[: rng.randint(2, len(stem))] + rng.choice(
                ["", "", "ed", "ing", "er", "s", "x"]
            )

        sentence = " ".join(word() for _ in range(rng.randint(0, 8)))
        question = [word() for _ in range(rng.randint(1, 5))]
        question = reader.content_words(" ".join(question)) + question
        assert reader.score(question, sentence) == _score_word_by_word(question, sentence), (
            question,
            sentence,
        )


def test_a_reply_recorded_chunk_by_chunk_is_read_as_one_turn():
    # The SDK's chat records each streamed chunk as its own model message, cut between words.
    contents = [
        {"role": "user", "parts": [{"text": "Keep this for me."}]},
        {"role": "model", "parts": [{"text": "The vault code is "}]},
        {"role": "model", "parts": [{"text": "nine four one."}]},
        {"role": "user", "parts": [{"text": "What is the vault code?"}]},
    ]
    assert (
        reader.answer({"contents": contents})
        == 'From what I can see: "The vault code is nine four one."'
    )
    separate = [
        contents[0],
        {"role": "model", "parts": [{"text": "The vault code is set."}]},
        {"role": "model", "parts": [{"text": "Nine four one opens it."}]},
        contents[3],
    ]
    first_quote = reader.answer({"contents": separate}).split('"')[1]
    assert first_quote == "The vault code is set."  # whole messages stay apart


def test_a_score_counts_the_question_words_a_sentence_word_matches():
    """Equal words match, and so do two where the shorter, of 4+ letters, starts the longer."""
    rng = random.Random(5)
    vocab = ["park", "parked", "parking", "par", "car", "cars", "live", "lived", "liver", "tax"]
    vocab += ["taxes", "invoice", "invoices", "stock", "stocks", "wait", "waiting", "godot"]

    def matches(q, w):
        short, long = sorted((q, w), key=len)
        return q == w or (len(short) >= reader.MIN_STEM and long.startswith(short))

    for _ in range(3_000):
        question = [rng.choice(vocab) for _ in range(rng.randint(0, 5))]
        sentence = " ".join(rng.choice(vocab) for _ in range(rng.randint(0, 9))) + "."
        words = set(reader._content_words(sentence))
        want = sum(1 for q in set(question) if any(matches(q, w) for w in words))
        assert reader.score(question, sentence) == want, (question, sentence)

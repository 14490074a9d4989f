"""Lesson 12's quiz: why keep a keyword path, what fusion rewards, where a threshold applies, and
when retrieval beats stuffing."""

from harness.quizzes import Question

QUESTIONS = [
    Question(
        "A student asks which port the service Zorblax-7 listens on. The wiki has hundreds of "
        "pages "
        "about ports. Which search is likely to miss the page that answers?",
        right=(
            "Dense search alone",
            (
                "An embedding has never learned an invented name, so the question reads as 'a"
                " question about ports': every port page is as near, and past top-k of them the"
                " answer drops out. BM25 weighs the rare name most, because few pages hold it."
            ),
        ),
        wrong=[
            (
                "BM25 alone",
                (
                    "BM25 ranks by shared words, weighted by how rare they are: 'zorblax' is in one"
                    " page, so that page comes first at every corpus size."
                ),
            ),
            (
                "Neither: both read the same words",
                (
                    "They read different things: BM25 the exact words, an embedding their meaning. "
                    "The name "
                    "has no meaning to the embedding, and all the weight to BM25."
                ),
            ),
        ],
    ),
    Question(
        "Another question asks 'Must an ill worker remain at the house?' and the answering page "
        "says "
        "'Employees who feel sick should stay home.' Which search finds it?",
        right=(
            "Dense search",
            (
                "The two texts share no word but their meanings: an embedding puts them near each "
                "other. "
                "BM25 has no word to match, which is why the pipeline keeps both paths."
            ),
        ),
        wrong=[
            (
                "BM25",
                (
                    "BM25 needs a shared word; 'ill', 'worker' and 'house' are not in the page, so"
                    " it scores zero there."
                ),
            ),
            (
                "Both, equally",
                "Only one of them can: the question and the page share meanings, not words.",
            ),
        ],
    ),
    Question(
        "In reciprocal rank fusion with k = 60, a page is first in the BM25 list and absent from "
        "the "
        "dense list. Another is 10th in both. Which ranks higher after fusion?",
        right=(
            "The page 10th in both lists",
            (
                "1/70 + 1/70 is about 0.029, more than 1/61 (about 0.016): fusion rewards"
                " agreement. A page only one search finds can fall below the top 5, so cut after"
                " fusion with a budget or a re-ranker, not at a small top-n."
            ),
        ),
        wrong=[
            (
                "The page first in BM25",
                (
                    "A first place counts 1/61 once; two tenth places count 1/70 twice. Fusion adds"
                    " the lists, so agreement wins."
                ),
            ),
            (
                "They tie: fusion only looks at the best rank",
                (
                    "It adds a term for every list that holds the page; taking the best rank alone"
                    " is another method (and a wrong answer to 12.1)."
                ),
            ),
        ],
        exercise="12.1",
    ),
    Question(
        "The article drops everything scoring below 0.10 after its re-ranker. Why can this lesson "
        "not "
        "apply 0.10 to the fused scores?",
        right=(
            "Fused scores are at most 2/61, about 0.033, so 0.10 would drop every page",
            (
                "A threshold belongs to a score on a known scale: the re-ranker's there, the dense "
                "cosine "
                "here. Reciprocal rank fusion scores only order pages."
            ),
        ),
        wrong=[
            (
                "Because a threshold would cut the needle",
                (
                    "At 0.10 on the dense cosine the pipeline still sends every needle here; it is "
                    "the scale "
                    "of the fused scores that rules them out."
                ),
            ),
            (
                "Because fused scores are negative",
                "They are sums of 1/(k + rank): positive and small, never above one term per list.",
            ),
        ],
        exercise="12.2",
    ),
    Question(
        "A wiki of 100,000 tokens fits in Gemini's window of 1,048,576. Why retrieve instead of "
        "sending it all?",
        right=(
            "Every question would pay for 100,000 input tokens instead of about 3,000",
            (
                "Stuffing answers too when the page is in the window, but each call bills the whole"
                " wiki; retrieval sends what the question needs. Past the window, stuffing cannot"
                " answer at all: the request is refused with a 400."
            ),
        ),
        wrong=[
            (
                "The model cannot read 100,000 tokens",
                (
                    "It can: the window is ten times larger. The cost is the argument here, and the"
                    " window only when the corpus passes it."
                ),
            ),
            (
                "Retrieval always answers better",
                (
                    "Not always: retrieval can miss a page (dense search on a code name) that "
                    "stuffing would "
                    "have had in view. Measure both on your own questions."
                ),
            ),
        ],
    ),
]

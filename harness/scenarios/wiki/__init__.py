"""Lesson 12's corpus: an invented company wiki that grows, with needles buried in it.

Every internal service is known by an invented code name (Zorblax, Quennet-4: no dictionary holds
them). Each has a card stating the same nine facts (when it runs, who owns it, its port...), worded
from a few templates with synonyms, and a quarter of the pages are topic pages (a timetable, a port
list) stating one fact for four to seven services. Every page is about the same few topics: that is
what buries a needle for an embedding, which reads the topic and not the name.

    >>> wiki = make_wiki()
    >>> [len(wiki.prefix(size).pages) for size in SIZES], len(wiki.needles), len(wiki.paraphrases)
    ([75, 177, 355, 695], 24, 6)
    >>> needle = wiki.needles[0]
    >>> needle.question, needle.page
    ('What does Rymyx-9 convert for the team?', 'page-2539')
    >>> needle.answer in wiki.text_of(needle.page)
    True

Two kinds of needle. A **code-name** needle asks about one service by its name; its card states the
fact in the question's own words (the name, "port", "listens"), as topic pages do (STATED); other
cards word each fact from a few templates with synonyms (FACTS). A **paraphrased** needle shares no
content word with its page, only meanings ("ill worker" for "sick employees"). Each smaller wiki is
the start of a larger one (`prefix`), and every needle sits in the smallest, so one embedding of the
largest serves every size. Page ids are drawn at random (`page-0412`): sorting by id, as a tie-break
does, neither favours nor buries a needle.

Why dense search loses the code-name needle here: to the glass box's embedder a question about
Zorblax is a question about "port" and "listen", since it does not know the name. A card mentions
each topic once; a topic page on that topic mentions it four to seven times, so every such page
outranks the card, whose only edge is the name's small weight. Their number grows with the wiki:
once it passes the dense top-k, the needle is out. Where that happens depends on the share of topic
pages, the top-k and the weight of an unknown word, not on the count of tokens as such. BM25 weighs
the rare name most (inverse document frequency) and ranks the card first at every size.

Deterministic (random.Random with fixed seeds): the same wiki on every machine. The glass box needs
no policy for it: its reader answers from whatever pages a request carries.
"""

import random
from dataclasses import dataclass
from functools import lru_cache

from harness.plumbing.arguments import checked
from harness.tokens import approx_tokens

# the wiki's sizes in tokens; each is the start of the next
SIZES = (
    10_000,
    25_000,
    50_000,
    100_000,
)
TOPIC_SHARE = 0.25  # the share of pages that are topic pages
SEED = 12

ONSETS = "b br d dr f g gr k kr l m n p pr qu r s st t tr v vr z x".split()
VOWELS = "a e i o u ae ou y".split()
CODAS = "x rn th sk l m v z ck nd rk".split()

TEAMS = "billing|search|payments|platform|identity|logistics|reporting|support|mobile|data"
PEOPLE = "Ana|Bruno|Chen|Dara|Elif|Farid|Greta|Hugo|Ines|Jonas|Kofi|Lena|Mateo|Nora|Omar|Priya"
MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
REGIONS = "northern|southern|eastern|western|central"
OBJECTS = "invoices|orders|receipts|reports|images|messages|payments|accounts|contracts|labels"
SERVICES = (
    "the billing service|the search index|the payment gateway|the login service|the mail relay"
)
CAUSES = "full disk|certificate that expired|network fault|memory leak"


def _pick(rng: random.Random, options: str) -> str:
    return rng.choice(options.split("|"))


def _clock(rng: random.Random) -> str:
    return f"{rng.randint(0, 23):02d}:{rng.choice((0, 10, 15, 20, 30, 40, 45, 50)):02d}"


# For each fact, the sentence a needle's card and every topic page use: the question's own words.
STATED = {
    "schedule": lambda r, n: f"{n} runs every day at {_clock(r)}.",
    "owner": lambda r, n: f"{n} is owned by the {_pick(r, TEAMS)} team.",
    "port": lambda r, n: f"{n} listens on port {r.randint(1025, 9999)}.",
    "retention": lambda r, n: f"{n} keeps its logs for {r.randint(7, 400)} days.",
    "region": lambda r, n: f"{n} is hosted in the {_pick(r, REGIONS)} region.",
    "budget": lambda r, n: f"{n} costs about {r.randint(2, 90) * 100} dollars a month.",
    "incident": lambda r, n: (
        f"In {_pick(r, MONTHS)} {n} failed for {r.randint(3, 180)} minutes after a "
        f"{_pick(r, CAUSES)}."
    ),
    "purpose": lambda r, n: (
        f"{n} converts {_pick(r, OBJECTS)} into {_pick(r, OBJECTS)} for the {_pick(r, TEAMS)} team."
    ),
    "dependency": lambda r, n: f"{n} depends on {_pick(r, SERVICES)} to fetch {_pick(r, OBJECTS)}.",
}
# The ways any other card states each fact about the service `n`, with synonyms.
FACTS = {
    "schedule": [
        lambda r, n: (
            f"{n} {_pick(r, 'runs|executes|operates')} every "
            f"{_pick(r, 'night|morning|evening|weekday|day')} at {_clock(r)}."
        ),
        lambda r, n: (
            f"The {_pick(r, 'job|task|batch')} of {n} is scheduled for {_clock(r)} "
            f"{_pick(r, 'daily|nightly|weekly|every day')}."
        ),
        lambda r, n: (
            f"{n} {_pick(r, 'starts|launches|kicks off')} at {_clock(r)} and "
            f"{_pick(r, 'finishes|ends|completes')} within {r.randint(5, 90)} minutes."
        ),
    ],
    "owner": [
        lambda r, n: f"{n} is {_pick(r, 'owned|maintained|run')} by the {_pick(r, TEAMS)} team.",
        lambda r, n: (
            f"{_pick(r, PEOPLE)} {_pick(r, 'leads|manages|looks after')} {n}, and questions "
            f"go to the {_pick(r, TEAMS)} team."
        ),
    ],
    "port": [
        lambda r, n: (
            f"{n} {_pick(r, 'listens|accepts connections|answers requests')} on port "
            f"{r.randint(1025, 9999)}."
        ),
        lambda r, n: (
            f"Clients reach {n} through the {_pick(r, 'gateway|proxy|load balancer')} on port "
            f"{r.randint(1025, 9999)}."
        ),
    ],
    "retention": [
        lambda r, n: (
            f"{n} keeps its {_pick(r, 'logs|records|events')} for {r.randint(7, 400)} days."
        ),
        lambda r, n: (
            f"{_pick(r, 'Logs|Records|Events')} written by {n} are "
            f"{_pick(r, 'deleted|purged|removed')} after {r.randint(7, 400)} days."
        ),
    ],
    "region": [
        lambda r, n: (
            f"{n} is {_pick(r, 'hosted|deployed|located')} in the {_pick(r, REGIONS)} "
            f"{_pick(r, 'region|data centre|zone')}."
        ),
        lambda r, n: (
            f"{n} lives in the {_pick(r, REGIONS)} {_pick(r, 'region|zone')}, with a copy in "
            f"the {_pick(r, REGIONS)} one."
        ),
    ],
    "budget": [
        lambda r, n: (
            f"{n} costs about {r.randint(2, 90) * 100} dollars a month, mostly for "
            f"{_pick(r, 'storage|compute|bandwidth|licences')}."
        ),
        lambda r, n: (
            f"The monthly {_pick(r, 'bill|cost|spend')} of {n} is close to "
            f"{r.randint(2, 90) * 100} dollars."
        ),
    ],
    "incident": [
        lambda r, n: (
            f"In {_pick(r, MONTHS)} {n} {_pick(r, 'failed|crashed')} for {r.randint(3, 180)} "
            f"minutes after a {_pick(r, 'bad deploy|' + CAUSES)}."
        ),
        lambda r, n: (
            f"The last {_pick(r, 'outage|incident|failure')} of {n} was in {_pick(r, MONTHS)}, "
            f"caused by a {_pick(r, CAUSES)}."
        ),
    ],
    "purpose": [
        lambda r, n: (
            f"{n} {_pick(r, 'converts|turns|transforms')} {_pick(r, OBJECTS)} into "
            f"{_pick(r, OBJECTS)} for the {_pick(r, TEAMS)} team."
        ),
        lambda r, n: (
            f"{n} {_pick(r, 'sends|delivers')} {_pick(r, 'notifications|reminders|emails|alerts')}"
            f" to {_pick(r, 'customers|users|staff|partners')}."
        ),
        lambda r, n: (
            f"{n} {_pick(r, 'checks|validates|verifies')} {_pick(r, OBJECTS)} before they "
            f"reach {_pick(r, SERVICES)}."
        ),
    ],
    "dependency": [
        lambda r, n: (
            f"{n} {_pick(r, 'depends on|relies on|calls')} {_pick(r, SERVICES)} to "
            f"{_pick(r, 'look up|fetch|store')} {_pick(r, OBJECTS)}."
        ),
    ],
}
FILLER = [
    lambda r: (
        f"Changes to it go through {_pick(r, 'review|a review|two reviews')} before "
        f"{_pick(r, 'release|every release')}."
    ),
    lambda r: (
        f"Its dashboard shows the {_pick(r, 'error rate|latency|queue length|traffic')} of the "
        f"last {_pick(r, 'hour|day|week')}."
    ),
    lambda r: (
        f"A runbook {_pick(r, 'explains|describes')} how to {_pick(r, 'restart|roll back|scale')} it."
    ),
    lambda r: (
        f"It was {_pick(r, 'written|rewritten|built')} in {r.randint(2015, 2026)} to replace an "
        "older "
        f"{_pick(r, 'script|tool|system')}."
    ),
    lambda r: (
        f"Alerts go to the {_pick(r, 'on-call engineer|team channel|incident room')} when it "
        f"{_pick(r, 'slows down|fails|falls behind')}."
    ),
]
TITLES = {
    "schedule": "Timetable of the {team} jobs.",
    "owner": "Who owns which service in the {team} group.",
    "port": "Ports in use behind the gateway.",
    "retention": "How long each service keeps its records.",
    "region": "Where the {team} services are hosted.",
    "budget": "Cost report for {month}.",
    "incident": "Incidents of {month}.",
    "purpose": "What the {team} services do.",
    "dependency": "Who calls what in the {team} group.",
}

# What a student asks about a fact, the code name put in ({n}).
QUESTIONS = {
    "schedule": "At what time of day does {n} run?",
    "owner": "Which team owns {n}?",
    "port": "Which port does {n} listen on?",
    "retention": "How long does {n} keep its logs?",
    "region": "In which region is {n} hosted?",
    "budget": "How much does {n} cost a month?",
    "incident": "When did {n} last fail?",
    "purpose": "What does {n} convert for the team?",
}
NEEDLES_PER_FACT = 3

# Paraphrased needles (page, question): the question shares no content word with its page.
PARAPHRASES = [
    (
        (
            "Staff must never paste customer passwords into a chat window; security treats it as a "
            "breach."
        ),
        "May employees put client credentials in a messaging tool?",
    ),
    (
        "Managers approve travel expenses within five working days.",
        "How quickly do bosses authorise journey costs?",
    ),
    (
        "A faulty power supply caused the outage in the north warehouse.",
        "Which defective electrical unit led to the blackout at the northern depot?",
    ),
    (
        "Employees who feel sick should stay home and tell their manager.",
        "Must an ill worker remain at the house and inform the boss?",
    ),
    (
        "Deleted invoices can be restored from the archive for thirty days.",
        "Do erased bills get recovered out of the repository within a month?",
    ),
    (
        "Large files upload faster over the wired network than over wifi.",
        "Do big documents transfer more quickly by cable connection compared with wireless?",
    ),
]


@dataclass(frozen=True)
class Needle:
    """A question whose answer is on one page: `answer` is the sentence that answers it."""

    kind: str  # "code name" or "paraphrase"
    page: str
    question: str
    answer: str


@dataclass(frozen=True)
class Wiki:
    """The pages (id, text) in the order the wiki grows, and the needles buried in its start."""

    pages: tuple[tuple[str, str], ...]
    needles: tuple[Needle, ...]
    paraphrases: tuple[Needle, ...]

    @property
    def ids(self) -> list[str]:
        return [page_id for page_id, _ in self.pages]

    @property
    def texts(self) -> list[str]:
        return [text for _, text in self.pages]

    def text_of(self, page_id: str) -> str:
        return dict(self.pages)[page_id]

    def tokens(self) -> int:
        return sum(approx_tokens(text) for _, text in self.pages)

    def prefix(self, tokens: int) -> "Wiki":
        """The wiki at `tokens`: its pages up to the first that reaches that many tokens."""
        total, kept = 0, []
        for page in self.pages:
            if total >= tokens:
                break
            kept.append(page)
            total += approx_tokens(page[1])
        return Wiki(tuple(kept), self.needles, self.paraphrases)


def _code_name(rng: random.Random) -> str:
    """An invented, pronounceable name: Zorblax, Quennet-4."""
    name = "".join(
        rng.choice(part) for part in (ONSETS, VOWELS, ONSETS, VOWELS, CODAS)
    ).capitalize()
    return name + (f"-{rng.randint(2, 9)}" if rng.random() < 0.3 else "")


def _sentences(sentences: list[str]) -> str:
    return " ".join(s[0].upper() + s[1:] for s in sentences)


def _card(rng: random.Random, name: str, fact: str | None = None) -> tuple[str, str]:
    """A service's card and, for a needle's card, the sentence stating `fact` (else "").

    One sentence per fact and one or two filler sentences, in a random order. The first sentence
    names the service; the others name it one time in three and say "the service" otherwise, so
    every card looks alike to an embedding. A needle's card states `fact` in the question's
    words."""
    facts = sorted(FACTS)
    rng.shuffle(facts)
    sentences, answer = [], ""
    for i, f in enumerate(facts):
        named = i == 0 or f == fact or rng.random() < 1 / 3
        make = STATED[f] if f == fact else rng.choice(FACTS[f])
        sentences.append(make(rng, name if named else "the service"))
        if f == fact:
            answer = sentences[-1]
    for filler in rng.sample(FILLER, rng.randint(1, 2)):
        sentences.insert(rng.randint(1, len(sentences)), filler(rng))
    text = _sentences(sentences)
    return text, answer[0].upper() + answer[1:] if answer else ""


def _topic_page(rng: random.Random, fact: str, names: list[str]) -> str:
    """A page on one fact across several services, each stated in the question's words."""
    title = TITLES[fact].format(team=_pick(rng, TEAMS), month=_pick(rng, MONTHS))
    return _sentences([title] + [STATED[fact](rng, name) for name in names])


def _names(rng: random.Random, count: int, unknown) -> list[str]:
    """`count` code names, no two sharing their word, none a word the embedder knows."""
    names = {}
    while len(names) < count:
        name = _code_name(rng)
        word = name.split("-")[0]
        if unknown(word.lower()):
            names.setdefault(word, name)
    shuffled = sorted(names.values())
    rng.shuffle(shuffled)
    return shuffled


@checked(tokens=(SIZES[0], 10 * SIZES[-1]), topic_share=(0, 1))
@lru_cache(maxsize=4)
def make_wiki(tokens: int = SIZES[-1], topic_share: float = TOPIC_SHARE, seed: int = SEED) -> Wiki:
    """The wiki of `tokens` tokens: the needles' pages and distractors spread over its smallest size
    (SIZES[0]), then cards and topic pages until `tokens`."""
    # the glass box's vocabulary: a code name is not in it
    from harness.engine.embeddings import known

    rng = random.Random(seed)
    names = _names(rng, tokens // 40, lambda word: known(word) is None)
    made = []  # (kind, text, needle question, answer)
    for fact in sorted(QUESTIONS) * NEEDLES_PER_FACT:
        name = names.pop()
        text, answer = _card(rng, name, fact)
        made.append(("code name", text, QUESTIONS[fact].format(n=name), answer))
    made += [("paraphrase", text, question, text) for text, question in PARAPHRASES]
    pages, total = [], sum(approx_tokens(text) for _, text, _, _ in made)
    while total < tokens:
        if rng.random() < topic_share:
            fact = rng.choice(sorted(FACTS))
            text = _topic_page(rng, fact, [names.pop() for _ in range(rng.randint(4, 7))])
        else:
            text = _card(rng, names.pop())[0]
        pages.append(("distractor", text, "", ""))
        total += approx_tokens(text)
    # The needles go in random places among the first pages, so that all of them are in SIZES[0].
    room, first = SIZES[0] - sum(approx_tokens(text) for _, text, _, _ in made), 0
    while first < len(pages) and room > approx_tokens(pages[first][1]):
        room -= approx_tokens(pages[first][1])
        first += 1
    for needle in made:
        pages.insert(rng.randint(0, first), needle)
    ids = [f"page-{n:04d}" for n in rng.sample(range(10_000), len(pages))]
    found = {"code name": [], "paraphrase": []}
    for page_id, (kind, _, question, answer) in zip(ids, pages):
        if question:
            found[kind].append(Needle(kind, page_id, question, answer))
    return Wiki(
        tuple((page_id, page[1]) for page_id, page in zip(ids, pages)),
        tuple(found["code name"]),
        tuple(found["paraphrase"]),
    )

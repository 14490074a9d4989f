"""Checks for lesson 13, move don't delete: 13.1 `build_index` and 13.2 `consolidate`.

After the named cases each is compared with the reference on generated inputs
(`harness.checks.compare`): for 13.1, budgets at each boundary of the index (the whole index
exactly, one token short, each number of listed entries with and without the omitted line) under
three counters; for 13.2, facts whose keys differ only in case and spacing, sessions that tie,
forgets, and forgets stated again later.
"""

from harness.checks import call, exercise, must_refuse, rule
from harness.checks.compare import Case, agreeing, compare, generator
from harness.formats import INDEX_HEADER, entry_line, omitted_line
from harness.memory import consolidate as reference_consolidate
from harness.offload import build_index as reference_index
from harness.tokens import approx_tokens


def _words(text: str) -> int:
    return len(text.split())


def _one_token(text: str) -> int:
    return 1


COUNTERS = {"approx_tokens": approx_tokens, "len": len, "words": _words}


def _index(build, entries, budget, count=None):
    args = (entries, budget) if count is None else (entries, budget, count)
    return call("13.1", build, *args)


def _lines(*entries, omitted=None) -> str:
    lines = [INDEX_HEADER] + [entry_line(path, text) for path, text in entries]
    return "\n".join(lines + ([omitted_line(omitted)] if omitted is not None else []))


OLD, MID, NEW = (
    ("notes/turn-00.md", "I build museum tours in Godot."),
    ("notes/turn-01.md", "What is a prefix cache?"),
    ("notes/turn-02.md", "When should compaction fire?"),
)


@exercise(
    "13.1", "an index of the knowledge base under a budget", reference="harness.offload.build_index"
)
def check_index(build):
    """The answer is held to: the header then one line per entry, newest first; the whole index
    when it fits (<=); else the newest entries while the index with the omitted line (counting the
    rest) fits, stopping at the first that does not; the budget counted with `count` on the text
    returned; bad input refused."""
    whole = _lines(NEW, MID, OLD)
    got = _index(build, [OLD, MID, NEW], 10_000)
    rule(
        isinstance(got, str),
        "13.1",
        f"build_index must return the index as one text; it returned a {type(got).__name__}.",
        "Join the lines with newlines and return that string.",
    )
    rule(
        got == whole,
        "13.1",
        "with room for everything, the index of three files (oldest first in the list) should be "
        "the header, "
        f"then one entry_line per file, newest first, joined by newlines; got {got!r}.",
        "The list is oldest first and the index newest first; start with INDEX_HEADER and use "
        "entry_line.",
    )
    exact = _index(build, [OLD, MID, NEW], approx_tokens(whole))
    rule(
        exact == whole,
        "13.1",
        f"a budget equal to the whole index's count ({approx_tokens(whole)}) should keep the whole "
        f"index; got {exact!r}.",
        "An index that reaches the budget exactly still fits: compare with <=.",
    )
    short = _index(build, [OLD, MID, NEW], approx_tokens(whole) - 1)
    want = reference_index([OLD, MID, NEW], approx_tokens(whole) - 1)
    rule(
        short == want,
        "13.1",
        "one token short of the whole index, the newest files that fit should be listed and an "
        "omitted_line should "
        f"count the others; got {short!r}.",
        "When the whole index does not fit, it ends with omitted_line(n), n the number of files "
        "left out.",
    )
    with_omitted = approx_tokens(_lines(NEW, MID, omitted=1))
    counted = _index(build, [OLD, MID, NEW], with_omitted - 1)
    rule(
        counted == _lines(NEW, omitted=2),
        "13.1",
        f"the omitted line takes room too: with a budget of {with_omitted - 1}, two entries plus "
        "the omitted line do "
        f"not fit, so only the newest is listed; got {counted!r}.",
        "Count the index as you will return it, its last line included, before you add an entry.",
    )
    long_new = ("notes/turn-02.md", "a very long description " * 12)
    stopped = _index(build, [OLD, MID, long_new], approx_tokens(_lines(MID, OLD, omitted=1)))
    rule(
        stopped == _lines(omitted=3),
        "13.1",
        "when the newest entry does not fit, the index lists none (never an older one in its "
        f"place); got {stopped!r}.",
        "The unlisted files are always the oldest ones: stop at the first entry that does not fit.",
    )
    by_len = _index(build, [OLD, MID], len(_lines(MID, OLD)) - 1, len)
    rule(
        by_len == reference_index([OLD, MID], len(_lines(MID, OLD)) - 1, len),
        "13.1",
        "with count=len and a budget one character under the whole index, the index (newlines "
        "included) is over "
        f"it and must leave a file out; got {by_len!r}.",
        "Count the text you return with the count you are given, not its lines one by one.",
    )
    empty = _index(build, [], 100)
    rule(
        empty == INDEX_HEADER,
        "13.1",
        f"an index of no file should be the header alone; got {empty!r}.",
        "With no entries, return INDEX_HEADER.",
    )
    must_refuse(
        "13.1",
        build,
        [
            (([OLD], 0), "budget=0"),
            (([OLD], -5), "budget=-5"),
            (([OLD], 2.5), "budget=2.5"),
            (([OLD], 600.0), "budget=600.0"),
            # A counter under which the index fits 1 token: True (1) must be refused as a bool.
            (([OLD], True, _one_token), "budget=True"),
            (([OLD, MID, NEW], 5), "a budget too small for the header (budget=5)"),
            (("notes/a.md", 100), "entries given as a string"),
            (([("notes/a.md",)], 100), "an entry that is not a pair"),
            (([("", "empty path")], 100), "an entry with an empty path"),
            (([("notes/a.md", "two\nlines")], 100), "a description with a line break"),
        ],
        "check the budget (a positive whole number) and every entry (a path and a one-line "
        "description) first.",
    )
    compare(
        "13.1",
        build,
        reference_index,
        _index_cases(),
        agreeing(
            "newest first while the index, its omitted line included, fits the budget",
            "rebuild the index text at each step and count all of it with `count`.",
            "lists the newest files that fit",
        ),
        _smaller_index,
    )
    return "the newest files listed within the budget"


def _icase(entries, budget, counter) -> Case:
    return Case(
        entries,
        budget,
        COUNTERS[counter],
        note=f"build_index({entries}, {budget}, count={counter})",
    )


def _index_cases() -> list:
    rng = generator()
    words = "cache prefix window index note turn summary budget tool output shell grep".split()
    cases = []
    for _ in range(90):
        entries = [
            (
                f"notes/turn-{i:02d}.md",
                " ".join(rng.choice(words) for _ in range(rng.randint(0, 9))),
            )
            for i in range(rng.randint(0, 6))
        ]
        counter = rng.choice(list(COUNTERS))
        count = COUNTERS[counter]
        lines = [entry_line(p, t) for p, t in reversed(entries)]
        sizes = {count("\n".join([INDEX_HEADER] + lines))}
        sizes |= {
            count("\n".join([INDEX_HEADER] + lines[:k] + [omitted_line(len(lines) - k)]))
            for k in range(len(lines))
        }
        for size in rng.sample(sorted(sizes), min(3, len(sizes))):
            cases.append(_icase(entries, size + rng.choice((-1, 0, 1)), counter))
    return cases


def _smaller_index(case) -> list:
    entries, budget, count = case.args
    counter = next(name for name, fn in COUNTERS.items() if fn is count)
    return [_icase(entries[:i] + entries[i + 1 :], budget, counter) for i in range(len(entries))]


# --- 13.2 -----------------------------------------------------------------------------------------


def _as_triples(value):
    """A memory as tuples (lists, or a Memory, are as good: the cells below read any sequence)."""
    try:
        return [tuple(fact) for fact in value] if not isinstance(value, (str, dict)) else value
    except TypeError:
        return value


def _merge(consolidate, memories, notes):
    return _as_triples(call("13.2", consolidate, memories, notes))


@exercise(
    "13.2",
    "consolidate memory, the newest statement winning",
    reference="harness.memory.consolidate",
)
def check_consolidate(consolidate):
    """The answer is held to: one fact per key (case and spacing ignored), the highest session
    winning, a note over a memory and a later over an earlier on a tie; a blank winner forgets the
    key; own key and value kept; newest first, then by key; bad input refused; inputs unchanged."""
    newer = _merge(consolidate, [("platform", "Godot", 0)], [("platform", "Unity", 1)])
    rule(
        isinstance(newer, list)
        and all(isinstance(fact, tuple) and len(fact) == 3 for fact in newer),
        "13.2",
        f"consolidate must return a list of (key, value, session) triples; it returned {newer!r}.",
        "Build a list with one triple per fact kept (a tuple, a list or a Memory).",
    )
    rule(
        newer == [("platform", "Unity", 1)],
        "13.2",
        "a platform stated in session 0 and again in session 1 should keep session 1's; got "
        f"{newer!r}.",
        "For each key keep the statement of the highest session.",
    )
    older_note = _merge(consolidate, [("platform", "Unity", 2)], [("platform", "Godot", 1)])
    rule(
        older_note == [("platform", "Unity", 2)],
        "13.2",
        f"a note from session 1 must not replace a memory from session 2; got {older_note!r}.",
        "Which list a fact comes from matters only on a tie: compare the sessions first.",
    )
    tie = _merge(consolidate, [("platform", "Godot", 1)], [("platform", "Unity", 1)])
    rule(
        tie == [("platform", "Unity", 1)],
        "13.2",
        f"on a tie of sessions the note (said later) should beat the memory; got {tie!r}.",
        "Read the memories first and the notes after them: on a tie, the later statement wins.",
    )
    later = _merge(consolidate, [], [("platform", "Godot", 1), ("platform", "Unity", 1)])
    rule(
        later == [("platform", "Unity", 1)],
        "13.2",
        f"two notes of the same session: the later one in the list should win; got {later!r}.",
        "Within a list too, a later statement replaces an earlier one of the same session.",
    )
    spelled = _merge(consolidate, [("Weak  Spot", "caching", 0)], [(" weak spot", "pricing", 1)])
    rule(
        spelled == [(" weak spot", "pricing", 1)],
        "13.2",
        "'Weak  Spot' and ' weak spot' are the same key (case and spacing ignored), and the "
        "winner keeps its own "
        f"spelling; got {spelled!r}.",
        "Compare keys by a normalised form (lower case, whitespace runs collapsed), but return the "
        "fact as given.",
    )
    forgot = _merge(consolidate, [("studio", "Lantern Works", 0)], [("studio", "", 1)])
    rule(
        forgot == [],
        "13.2",
        "'forget my studio' (an empty value in session 1) should remove the studio; got "
        f"{forgot!r}.",
        "A winning fact with an empty value means the student asked to forget it: leave that key "
        "out.",
    )
    blank = _merge(consolidate, [("studio", "Lantern Works", 0)], [("studio", "   ", 1)])
    rule(
        blank == [],
        "13.2",
        f"a blank value ('   ') is a forget too; got {blank!r}.",
        "Test the value with .strip() before deciding it is empty.",
    )
    restated = _merge(consolidate, [("studio", "", 1)], [("studio", "Ember Bay", 2)])
    rule(
        restated == [("studio", "Ember Bay", 2)],
        "13.2",
        "a studio forgotten in session 1 and stated again in session 2 should be kept; got "
        f"{restated!r}.",
        "Decide the winner first, then drop it only if the winner itself is empty.",
    )
    ordered = _merge(
        consolidate,
        [("weak spot", "pricing", 0), ("studio", "Lantern", 1)],
        [("platform", "Unity", 2), ("deadline", "June", 1)],
    )
    rule(
        ordered
        == [
            ("platform", "Unity", 2),
            ("deadline", "June", 1),
            ("studio", "Lantern", 1),
            ("weak spot", "pricing", 0),
        ],
        "13.2",
        f"the memory should come newest first (highest session), then by key; got {ordered!r}.",
        "Sort the winners by session, highest first, and by key within a session.",
    )
    by_key = _merge(consolidate, [("Studio", "Lantern", 1), ("deadline", "June", 1)], [])
    rule(
        by_key == [("deadline", "June", 1), ("Studio", "Lantern", 1)],
        "13.2",
        "within a session the facts go by key, the keys compared as above (case and spacing "
        f"ignored): 'deadline' before 'Studio'; got {by_key!r}.",
        "Sort on the same form of the key that you compare keys with.",
    )
    must_refuse(
        "13.2",
        consolidate,
        [
            (({"platform": "Unity"}, []), "memories given as a dict"),
            (([], "platform is Unity"), "notes given as a string"),
            (([("platform", "Unity")], []), "a fact that is not a triple"),
            (([("", "Unity", 1)], []), "an empty key"),
            (([("platform", None, 1)], []), "a value that is None"),
            (([("platform", "Unity", -1)], []), "session=-1"),
            (([("platform", "Unity", 1.5)], []), "session=1.5"),
            (([("platform", "Unity", True)], []), "session=True"),
        ],
        "check both lists and every fact (a key, a value, a session from 0) before merging.",
    )
    compare(
        "13.2",
        consolidate,
        reference_consolidate,
        _memory_cases(),
        agreeing(
            "one fact per key, the newest statement winning, forgets dropped, newest first",
            "walk the memories then the notes in order, keeping for each normalised key the newest "
            "statement.",
            "consolidates like the rule",
            lambda got, want: _as_triples(got) == want,
        ),
        _smaller_memory,
    )
    return "one fact per key, the newest statement winning"


KEYS = ("platform", "Platform", "platform ", "weak spot", "Weak  spot", "studio", "deadline")
VALUES = ("Unity", "Godot", "", "  ", "Lantern Works", " pricing ")


def _mcase(memories, notes) -> Case:
    return Case(memories, notes, note=f"consolidate({memories}, {notes})")


def _memory_cases() -> list:
    rng = generator()
    fact = lambda: (rng.choice(KEYS), rng.choice(VALUES), rng.randint(0, 3))  # noqa: E731
    return [
        _mcase(
            [fact() for _ in range(rng.randint(0, 4))], [fact() for _ in range(rng.randint(0, 4))]
        )
        for _ in range(150)
    ]


def _smaller_memory(case) -> list:
    memories, notes = case.args
    return [_mcase(memories[:i] + memories[i + 1 :], notes) for i in range(len(memories))] + [
        _mcase(memories, notes[:i] + notes[i + 1 :]) for i in range(len(notes))
    ]

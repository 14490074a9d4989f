"""Checks for lesson 08, measuring memory: 8.1 `grade_probe` and 8.2 the trigger filter.

After the named cases each is compared with the reference on generated answers and runs
(`harness.checks.compare`): key points changed in case and spacing, phrases split across words;
runs with no call, no probe, compactions on the probe's own call.
"""

from harness.checks import ExerciseFailed, call, exercise, rule
from harness.checks.compare import Case, agreeing, compare, generator
from harness.plumbing.session_bundles import Bundle, Recording
from harness.probes import (
    compaction_fired_before_probe as reference_filter,
)
from harness.probes import (
    grade_probe as reference_grade,
)


@exercise("8.1", "grade a probe on its key points", reference="harness.probes.grade_probe")
def check_grade_probe(grade_probe):
    """The answer is held to: True iff every key point appears as a phrase, ignoring case and
    runs of whitespace."""
    answer = 'From what I can see: "My weak spot is Prompt  Cache\npricing for my tours."'
    cases = [  # key points, expected, the rule, a hint for that rule alone
        (
            ["prompt cache pricing"],
            True,
            "a key point that differs only in case and line breaks must count as present",
            (
                "what do 'Prompt  Cache\\npricing for' and 'prompt cache pricing' have in common"
                " once case and spacing are ignored?"
            ),
        ),
        (
            ["PROMPT CACHE PRICING"],
            True,
            "the key point's own case must not matter either",
            "normalise the key point the same way as the answer.",
        ),
        (
            ["weak spot", "pricing"],
            True,
            "every key point is present, so the probe passes",
            "a probe with several key points passes when each one is found.",
        ),
        (
            ["pricing", "250 ms"],
            False,
            "one key point (250 ms) is missing, so the probe fails",
            "one missing key point fails the whole probe: no partial credit.",
        ),
        (
            ["cache pricing model"],
            False,
            "a key point is a phrase: it must appear whole, not word by word",
            "look for the key point as one piece of text, not for its words one at a time.",
        ),
        (
            ["prompt pricing"],
            False,
            "both words are in the answer, but not together: a key point is a phrase",
            "look for the key point as one piece of text, not for its words one at a time.",
        ),
    ]
    for key_points, want, why, hint in cases:
        got = call("8.1", grade_probe, answer, key_points)
        rule(
            got is want,
            "8.1",
            f"grade_probe(answer, {key_points!r}) returned {got!r}, expected {want}: {why}.",
            hint,
        )
    spaced = "Each narration must begin within 2 50ms."
    got = call("8.1", grade_probe, spaced, ["250 ms"])
    rule(
        got is False,
        "8.1",
        f"grade_probe({spaced!r}, ['250 ms']) returned {got!r}, expected False: '2 50ms' is "
        "not '250 ms'. Ignoring runs of whitespace makes a run count as one space, not as none.",
        "your function matched text whose spaces are in other places: what is left of the phrase"
        " '250 ms' once every space is gone?",
        name="a run of whitespace counts as one space, not none",
    )
    # True (every key point, of none, appears) or ValueError (a probe with none is a mistake): both
    # free
    try:
        got = call("8.1", grade_probe, answer, [])
    except ExerciseFailed as failure:
        if not isinstance(failure.__cause__, ValueError):
            raise
        got = True
    rule(
        got is True,
        "8.1",
        f"grade_probe(answer, []) returned {got!r}: with no key points, every key point "
        "appears, so True (or refuse the probe with ValueError).",
        "'every key point appears' is true when there is none to look for.",
        name="no key points: True",
    )
    compare(
        "8.1",
        grade_probe,
        reference_grade,
        _probe_cases(),
        agreeing(
            "True iff every key point appears whole, ignoring case and runs of whitespace",
            "normalise the answer and each key point the same way, then look for each key point as"
            " one phrase.",
            "every key point, as a phrase, case and spacing ignored",
            lambda got, want: got is want,
        ),
        _smaller_probe,
    )
    return "all key points, case- and whitespace-insensitive"


def _run(*events: str) -> Recording:
    """A run from a compact notation: 'q' a plain call, 'c' a call after a compaction, 'p' a
    probe answer, 'cp' a probe answer right after a compaction."""
    run = Recording("check")
    for turn, event in enumerate(events):
        run.add(
            Bundle(
                turn,
                {"promptTokenCount": 100},
                compactions=[{"messages": 4}] if "c" in event else [],
                answer="ok" if "p" in event else "",
                probe={"question": "q?", "key_points": ["x"]} if "p" in event else None,
            )
        )
    return run


@exercise(
    "8.2",
    "keep only runs where compaction fired before the probe",
    reference="harness.probes.compaction_fired_before_probe",
)
def check_trigger_filter(fired_before_probe):
    """The answer is held to: True iff a compaction is recorded on or before the first probe's
    call; False without a probe."""
    cases = [  # the run, the answer, why, a hint about what this run holds
        (
            ("q", "q", "p"),
            False,
            "a run that never compacted tests nothing about compaction",
            "no bundle of this run records a compaction.",
        ),
        (
            ("q", "c", "q", "p"),
            True,
            "compaction fired two calls before the probe",
            (
                "the compaction is recorded on a bundle before the probe's: look back from the"
                " probe, not only at it."
            ),
        ),
        (
            ("q", "q", "p", "c", "p"),
            False,
            "compaction fired only after the first probe was answered",
            "this run has two probes: which one does the exercise ask about?",
        ),
        (
            ("q", "q", "cp"),
            True,
            "the compaction recorded on the probe's own call happened before that call",
            (
                "a bundle's .compactions fired before that bundle's call: here, before the probe"
                " was answered."
            ),
        ),
        (
            ("q", "c", "q"),
            False,
            "a run without a probe has nothing to keep",
            "this run has no probe at all: the exercise says what to return then.",
        ),
    ]
    for events, want, why, hint in cases:
        got = call("8.2", fired_before_probe, _run(*events))
        rule(
            got is want,
            "8.2",
            f"For a run {'-'.join(events)} your function returned {got!r}, expected {want}: {why}.",
            hint,
        )
    compare(
        "8.2",
        fired_before_probe,
        reference_filter,
        _filter_cases(),
        agreeing(
            "True when a compaction is recorded on or before the first probe's call",
            "find the run's first probe, and what is recorded on or before its bundle.",
            "compaction at or before the first probe",
            lambda got, want: got is want,
        ),
        _smaller_filter,
    )
    return "rejects runs whose probe came before any compaction"


_WORDS = ("prompt", "cache", "pricing", "weak", "spot", "Lyon", "250", "ms", "tea", "blue")


def _gcase(answer, key_points) -> Case:
    return Case(answer, list(key_points), note=f"grade_probe({answer!r}, {list(key_points)!r})")


def _probe_cases() -> list:
    rng = generator()
    cases = []
    for _ in range(120):
        words = [rng.choice(_WORDS) for _ in range(rng.randint(0, 6))]
        answer = "".join(w + rng.choice((" ", "  ", "\n", " \t")) for w in words).strip()
        answer = answer.upper() if rng.random() < 0.2 else answer
        points = []
        for _ in range(rng.randint(1, 3)):  # an empty list is refused (a caller mistake)
            start = rng.randint(0, max(len(words) - 1, 0))
            phrase = (
                " ".join(words[start : start + rng.randint(1, 3)])
                if words and rng.random() < 0.7
                else rng.choice(_WORDS)
            )
            points.append(phrase.title() if rng.random() < 0.3 else phrase)
        cases.append(_gcase(answer, points))
    for _ in range(30):  # spaces moved: a phrase whose words are glued, or a word split by a space
        first, second = rng.choice(_WORDS), rng.choice(_WORDS)
        cut = rng.randint(1, len(first) - 1)
        answer = rng.choice(
            (f"it is {first}{second} here", f"it is {first[:cut]} {first[cut:]} {second} here")
        )
        cases.append(_gcase(answer, [rng.choice((f"{first} {second}", first))]))
    return cases


def _smaller_probe(case) -> list:
    answer, points = case.args
    return [
        _gcase(answer, points[:i] + points[i + 1 :]) for i in range(len(points)) if len(points) > 1
    ]


def _fcase(events) -> Case:
    case = Case(_run(*events), note=f"a run {'-'.join(events) or '(no calls)'}")
    case.events = events
    return case


def _filter_cases() -> list:
    rng = generator()
    return [_fcase(()), _fcase(("p",))] + [
        _fcase(tuple(rng.choice(("q", "q", "c", "p", "cp")) for _ in range(rng.randint(0, 6))))
        for _ in range(100)
    ]


def _smaller_filter(case) -> list:
    events = case.events
    return [_fcase(events[:i] + events[i + 1 :]) for i in range(len(events))]

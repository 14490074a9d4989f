"""The plausible wrong answers to exercises 13.1 (`build_index`) and 13.2 (`consolidate`).

Each row is a wrong answer a student could write and a phrase of the rule the check must name: the
rule the answer breaks, not an earlier symptom. The references pass (the last tests here), so each
row's failure is the answer's, not the checker's.
"""

import re

import pytest
from wrong_answer_cases import assert_fails_on_its_rule, case_ids

from harness.checks import run_check
from harness.formats import INDEX_HEADER, entry_line, omitted_line
from harness.memory import consolidate
from harness.offload import build_index
from harness.tokens import approx_tokens


def _refuse(entries, budget):
    if isinstance(budget, bool) or not isinstance(budget, int) or budget < 1:
        raise ValueError("budget must be a positive whole number")
    if not isinstance(entries, list) or any(
        not isinstance(e, tuple) or len(e) != 2 or not e[0] or "\n" in e[1] for e in entries
    ):
        raise ValueError("entries must be (path, one-line description) pairs")


def _greedy(entries, budget, count, lines_of, fits, stop=True):
    """The index built by the usual loop, with the parts a wrong answer changes passed in."""
    _refuse(entries, budget)
    lines = lines_of(entries)
    if fits([INDEX_HEADER] + lines, budget, count):
        return "\n".join([INDEX_HEADER] + lines)
    kept = []
    for line in lines:
        if fits(
            [INDEX_HEADER] + kept + [line, omitted_line(len(lines) - len(kept) - 1)], budget, count
        ):
            kept.append(line)
        elif stop:
            break
    index = "\n".join([INDEX_HEADER] + kept + [omitted_line(len(lines) - len(kept))])
    if count(index) > budget:
        raise ValueError("budget too small for the header")
    return index


def newest_first(entries):
    return [entry_line(p, t) for p, t in reversed(entries)]


def whole_text_fits(lines, budget, count):
    return count("\n".join(lines)) <= budget


def oldest_first(entries, budget, count=approx_tokens):
    """Lists the files in the order given, oldest first."""
    return _greedy(
        entries, budget, count, lambda e: [entry_line(p, t) for p, t in e], whole_text_fits
    )


def strictly_under(entries, budget, count=approx_tokens):
    """Keeps an index only when it is strictly under the budget."""
    return _greedy(
        entries, budget, count, newest_first, lambda lines, b, c: c("\n".join(lines)) < b
    )


def omitted_line_not_counted(entries, budget, count=approx_tokens):
    """Adds entries while they fit without the omitted line, then appends it anyway."""
    _refuse(entries, budget)
    lines, kept = newest_first(entries), []
    for line in lines:
        if count("\n".join([INDEX_HEADER] + kept + [line])) > budget:
            break
        kept.append(line)
    if len(kept) == len(lines):
        return "\n".join([INDEX_HEADER] + kept)
    return "\n".join([INDEX_HEADER] + kept + [omitted_line(len(lines) - len(kept))])


def skips_what_does_not_fit(entries, budget, count=approx_tokens):
    """Skips an entry that does not fit and lists older ones after it (fill_budget's walk)."""
    return _greedy(entries, budget, count, newest_first, whole_text_fits, stop=False)


def lines_counted_one_by_one(entries, budget, count=approx_tokens):
    """Sums the count of each line, so the newlines between them are never counted."""
    return _greedy(
        entries, budget, count, newest_first, lambda lines, b, c: sum(map(c, lines)) <= b
    )


def always_approx_tokens(entries, budget, count=approx_tokens):
    """Ignores `count` and always counts with approx_tokens."""
    return _greedy(entries, budget, approx_tokens, newest_first, whole_text_fits)


def no_omitted_line(entries, budget, count=approx_tokens):
    """Leaves files out silently: no last line says how many."""
    index = _greedy(entries, budget, count, newest_first, whole_text_fits)
    return "\n".join(line for line in index.splitlines() if "not listed" not in line)


def without_header(entries, budget, count=approx_tokens):
    """Forgets the header line."""
    return _greedy(entries, budget, count, newest_first, whole_text_fits).split("\n", 1)[-1]


def omitted_line_always(entries, budget, count=approx_tokens):
    """Ends with an omitted line even when every file is listed (it says 0)."""
    _refuse(entries, budget)
    lines = newest_first(entries)
    kept = []
    for line in lines:
        if (
            count(
                "\n".join([INDEX_HEADER] + kept + [line, omitted_line(len(lines) - len(kept) - 1)])
            )
            > budget
        ):
            break
        kept.append(line)
    return "\n".join([INDEX_HEADER] + kept + [omitted_line(len(lines) - len(kept))])


def never_refuses(entries, budget, count=approx_tokens):
    """Returns the header alone when nothing fits, and accepts any budget."""
    try:
        return _greedy(entries, budget, count, newest_first, whole_text_fits)
    except ValueError:
        return INDEX_HEADER


def float_budget_accepted(entries, budget, count=approx_tokens):
    """Takes any number of at least 1 as a budget: 600.0 passes for 600."""
    if not isinstance(budget, (int, float)) or isinstance(budget, bool) or budget < 1:
        raise ValueError("budget must be a number of tokens, at least 1")
    return _greedy(entries, int(budget), count, newest_first, whole_text_fits)


def bool_budget_accepted(entries, budget, count=approx_tokens):
    """Tests isinstance(budget, int) alone, which True passes (as 1)."""
    if not isinstance(budget, int) or budget < 1:
        raise ValueError("budget must be a whole number of tokens, at least 1")
    return _greedy(entries, int(budget), count, newest_first, whole_text_fits)


def reverses_the_callers_list(entries, budget, count=approx_tokens):
    """Reverses `entries` in place to walk it newest first."""
    _refuse(entries, budget)
    entries.reverse()
    return _greedy(list(reversed(entries)), budget, count, newest_first, whole_text_fits)


# --- 13.2 -----------------------------------------------------------------------------------------


def _check(memories, notes):
    for facts in (memories, notes):
        if not isinstance(facts, list):
            raise ValueError("memories and notes must be lists")
        for fact in facts:
            if (
                not isinstance(fact, tuple)
                or len(fact) != 3
                or not isinstance(fact[0], str)
                or not fact[0].strip()
                or not isinstance(fact[1], str)
                or isinstance(fact[2], bool)
                or not isinstance(fact[2], int)
                or fact[2] < 0
            ):
                raise ValueError("each fact is a (key, value, session) triple")


def _norm(key):
    return " ".join(key.lower().split())


def _merged(
    memories,
    notes,
    key=_norm,
    replaces=lambda new, old: new[2] >= old[2],
    order=None,
    forget=True,
    empty=lambda value: not value.strip(),
):
    _check(memories, notes)
    newest = {}
    for fact in (order or (lambda m, n: list(m) + list(n)))(memories, notes):
        k = key(fact[0])
        if k not in newest or replaces(fact, newest[k]):
            newest[k] = fact
    kept = [fact for fact in newest.values() if not (forget and empty(fact[1]))]
    return sorted(kept, key=lambda fact: (-fact[2], _norm(fact[0])))


def older_wins(memories, notes):
    """Keeps the first statement of each key (the oldest)."""
    return _merged(memories, notes, replaces=lambda new, old: new[2] < old[2])


def last_in_the_list_wins(memories, notes):
    """Lets whatever comes later in the lists win, whatever its session."""
    return _merged(memories, notes, replaces=lambda new, old: True)


def memory_wins_a_tie(memories, notes):
    """On a tie of sessions keeps the memory (reads the notes first)."""
    return _merged(memories, notes, order=lambda m, n: list(n) + list(m))


def first_of_a_tie_wins(memories, notes):
    """On a tie keeps the earlier statement (> instead of >=)."""
    return _merged(memories, notes, replaces=lambda new, old: new[2] > old[2])


def case_sensitive_keys(memories, notes):
    """Compares keys as they are written."""
    return _merged(memories, notes, key=lambda key: key)


def spacing_not_ignored(memories, notes):
    """Lower-cases keys but leaves their spaces."""
    return _merged(memories, notes, key=str.lower)


def forget_ignored(memories, notes):
    """Keeps a fact whose value is empty."""
    return _merged(memories, notes, forget=False)


def blank_is_not_a_forget(memories, notes):
    """Treats only "" as a forget, not a blank value."""
    return _merged(memories, notes, empty=lambda value: value == "")


def forgets_dropped_first(memories, notes):
    """Removes the empty facts before choosing, so an older value comes back."""
    _check(memories, notes)
    return _merged([f for f in memories if f[1].strip()], [f for f in notes if f[1].strip()])


def forget_is_forever(memories, notes):
    """Drops a key once any statement of it was a forget, even if it is stated again later."""
    forgotten = {
        _norm(f[0])
        for f in list(memories) + list(notes)
        if isinstance(f, tuple) and len(f) == 3 and isinstance(f[1], str) and not f[1].strip()
    }
    return [f for f in _merged(memories, notes) if _norm(f[0]) not in forgotten]


def oldest_first_order(memories, notes):
    """Returns the memory oldest first."""
    return list(reversed(_merged(memories, notes)))


def ordered_by_key_only(memories, notes):
    """Sorts the memory by key alone."""
    return sorted(_merged(memories, notes), key=lambda fact: _norm(fact[0]))


def ordered_by_the_key_as_written(memories, notes):
    """Sorts a session's facts by the key as written, capitals before small letters."""
    return sorted(_merged(memories, notes), key=lambda fact: (-fact[2], fact[0]))


def normalised_key_returned(memories, notes):
    """Returns the normalised key instead of the fact's own."""
    return [(_norm(k), v, s) for k, v, s in _merged(memories, notes)]


def value_stripped(memories, notes):
    """Strips the values it returns."""
    return [(k, v.strip(), s) for k, v, s in _merged(memories, notes)]


def no_argument_checks(memories, notes):
    """Merges whatever it is given."""
    newest = {}
    for fact in list(memories) + list(notes):
        k = _norm(str(fact[0]))
        if k not in newest or fact[2] >= newest[k][2]:
            newest[k] = tuple(fact)
    return sorted(
        (f for f in newest.values() if str(f[1]).strip()), key=lambda f: (-f[2], _norm(str(f[0])))
    )


def keyed_by_name(memories, notes):
    """Returns a dict from key to fact instead of a list."""
    return {fact[0]: fact for fact in _merged(memories, notes)}


def lines_not_joined(entries, budget, count=approx_tokens):
    """Returns the index's lines as a list."""
    return _greedy(entries, budget, count, newest_first, whole_text_fits).split("\n")


def sorts_the_callers_notes(memories, notes):
    """Sorts `notes` in place by session before merging."""
    _check(memories, notes)
    notes.sort(key=lambda fact: fact[2])
    return _merged(memories, notes)


WRONG_ANSWERS = [
    ("13.1", oldest_first, "newest first"),
    (
        "13.1",
        strictly_under,
        "still fits: compare with <=|reaches the budget exactly|budget equal to",
    ),
    ("13.1", omitted_line_not_counted, "the omitted line takes room too"),
    ("13.1", skips_what_does_not_fit, "never an older one in its place"),
    ("13.1", lines_counted_one_by_one, "newlines included"),
    ("13.1", always_approx_tokens, "count=len"),
    ("13.1", no_omitted_line, "omitted_line should count the others"),
    ("13.1", without_header, "should be the header"),
    ("13.1", omitted_line_always, "should be the header, then one entry_line per file"),
    ("13.1", never_refuses, "must raise ValueError"),
    ("13.1", float_budget_accepted, "budget=600.0 must raise ValueError"),
    ("13.1", bool_budget_accepted, "budget=True must raise ValueError"),
    ("13.1", reverses_the_callers_list, "changed the arguments"),
    ("13.1", lines_not_joined, "must return the index as one text"),
    ("13.2", older_wins, "should keep session 1's"),
    ("13.2", last_in_the_list_wins, "must not replace a memory from session 2"),
    ("13.2", memory_wins_a_tie, "the note \\(said later\\) should beat the memory"),
    ("13.2", first_of_a_tie_wins, "the note \\(said later\\) should beat the memory"),
    ("13.2", case_sensitive_keys, "are the same key"),
    ("13.2", spacing_not_ignored, "are the same key"),
    ("13.2", forget_ignored, "should remove the studio"),
    ("13.2", blank_is_not_a_forget, "a blank value"),
    ("13.2", forgets_dropped_first, "should remove the studio"),
    ("13.2", forget_is_forever, "stated again in session 2 should be kept"),
    ("13.2", oldest_first_order, "newest first"),
    ("13.2", ordered_by_key_only, "newest first"),
    ("13.2", ordered_by_the_key_as_written, "keys compared as above"),
    ("13.2", normalised_key_returned, "keeps its own spelling"),
    ("13.2", value_stripped, "for consolidate\\(.*you returned"),
    ("13.2", no_argument_checks, "must raise ValueError"),
    ("13.2", sorts_the_callers_notes, "changed the arguments"),
    ("13.2", keyed_by_name, "must return a list of \\(key, value, session\\) triples"),
]


@pytest.mark.parametrize(
    "exercise_id, wrong, broken_rule", WRONG_ANSWERS, ids=case_ids(WRONG_ANSWERS)
)
def test_each_wrong_answer_fails_on_the_rule_it_breaks(exercise_id, wrong, broken_rule):
    assert_fails_on_its_rule(exercise_id, wrong, broken_rule)


def test_the_references_pass_and_so_does_a_loop_written_another_way():
    assert run_check("13.1", build_index).status == "passed"
    assert run_check("13.2", consolidate).status == "passed"

    def shrinking(entries, budget, count=approx_tokens):
        """Starts from every entry and drops the oldest until the index fits."""
        _refuse(entries, budget)
        lines = newest_first(entries)
        if count("\n".join([INDEX_HEADER] + lines)) <= budget:
            return "\n".join([INDEX_HEADER] + lines)
        for k in range(len(lines) - 1, -1, -1):
            index = "\n".join([INDEX_HEADER] + lines[:k] + [omitted_line(len(lines) - k)])
            if count(index) <= budget:
                return index
        raise ValueError("budget too small")

    def as_lists(memories, notes):
        return [list(fact) for fact in consolidate(memories, notes)]

    assert run_check("13.1", shrinking).status == "passed"
    assert run_check("13.2", as_lists).status == "passed"


def test_no_hint_gives_the_answer():
    hints = {run_check(exercise, wrong).hint for exercise, wrong, _ in WRONG_ANSWERS}
    assert len(hints) >= 15
    assert not any(re.search(r"max\(|sorted\(.*-|\[::-1\]|reversed\(", hint) for hint in hints), (
        hints
    )

"""The capstone's target (lesson 14): the tutor session of 14 questions and the planted-fact probes,
under a window.

A configuration meets the target when, on that session, billed at the prices of harness.MODEL:
    - no request is above WINDOW prompt tokens;
    - every planted fact is recalled, the session run to its last probe;
    - as many course answers quote a whole course sentence as under the full history;
    - the bill is at most COST_SHARE times the full history's on the same session.

The window is the real one scaled down. gemini-3.8-flash takes 1,048,576 input tokens (its row in
harness/models.py); here the window is 1,600, about 1/655 of it, so a 14-question session does what
a working day of long searches does to a real one: the full history peaks near 12,700 tokens, eight
windows. Even with every tool output cut to 1 character, the questions, calls and answers alone
reach about 1,785 tokens (measured here on the glass box, 2026-12-01): no cap, head share or
truncation mode fits, only compaction does (tests/test_capstone_sweep.py sweeps them). Under a
window this small no prompt reaches the model's 4,096-token cache minimum, so each compaction is
paid at the full input rate: the cost target prices it.

    >>> verdict(measure(reference_config()), full_history())   # doctest: +SKIP
"""

from collections.abc import Callable
from functools import lru_cache

from harness.plumbing.arguments import checked, require_instance, require_number

WINDOW = 1_600  # prompt tokens, the largest request allowed: the real input window scaled down
COST_SHARE = 1.10  # times the full history's bill on the same session


def scale() -> float:
    """How many tokens of the real input window (harness.MODEL's) one token of WINDOW stands for."""
    import harness
    from harness.models import model_row

    return model_row(harness.MODEL).input_token_limit / WINDOW


def _strategy(name: str, strategy) -> None:
    from harness.probes import Strategy

    require_instance(name, strategy, Strategy, "a probes.Strategy, e.g. reference_config()")


# what verdict reads of a measurement
MEASURES = (
    "largest request",
    "recall",
    "whole answers",
    "cost",
)


def _measurement(name: str, measured) -> None:
    """A result of `measure`: a dict with a finite number >= 0 under each of MEASURES."""
    require_instance(name, measured, dict, "a result of measure() (a dict)")
    for key in MEASURES:
        if key not in measured:
            raise ValueError(f"{name} lacks {key!r}: pass what measure() returns.")
        require_number(f"{name}[{key!r}]", measured[key], 0)


@checked(strategy=_strategy)
def measure(strategy) -> dict:
    """Run the target's session under `strategy`: largest request, recall, whole answers, bill,
    compactions, and each call's prompt tokens (the capstone panel draws them)."""
    from harness import connect
    from harness.billing import bill, price_for
    from harness.probes import probe_results, run_session, whole_answer_share
    from harness.scenarios.course.script import PROBES

    run = run_session(connect(), strategy)
    # Recall over every probe of the script: a session stopped early (session_token_cap) has not
    # recalled the facts it was never asked.
    return {
        "largest request": max(b.prompt_tokens for b in run.bundles),
        "recall": sum(probe_results(run)) / len(PROBES),
        "whole answers": whole_answer_share(run),
        "cost": bill(run.usages(), price_for()),
        "compactions": run.compaction_count(),
        "prompts": [b.prompt_tokens for b in run.bundles],
    }


@lru_cache(maxsize=None)
def _full_history(model: str, offline: bool, course) -> dict:
    from harness.probes import Strategy

    return measure(Strategy("full history"))


def full_history() -> dict:
    """The full history's measurement, the yardstick of two targets: run once per process for each
    model, mode (glass box or Gemini) and course corpus, not on every check or panel move."""
    import harness
    from harness.plumbing.client import is_offline
    from harness.scenarios.course import passages

    return dict(_full_history(harness.MODEL, is_offline(), passages()))


def _yardstick(name: str, measured) -> None:
    _measurement(name, measured)
    if measured["cost"] == 0:
        raise ValueError(
            f"{name}['cost'] is 0: the costs are compared as a ratio of it; pass full_history()."
        )


@checked(got=_measurement, full=_yardstick)
def verdict(got: dict, full: dict) -> list[tuple[str, bool, str]]:
    """(target, met?, readout) for each target of 14.1, from two `measure` results."""
    limit = COST_SHARE * full["cost"]
    return [
        (
            "window",
            got["largest request"] <= WINDOW,
            f"largest request {got['largest request']:,} of {WINDOW:,} tokens",
        ),
        (
            "recall",
            got["recall"] == 1.0,
            f"planted facts recalled {got['recall']:.0%} (target 100%)",
        ),
        (
            "whole answers",
            got["whole answers"] >= full["whole answers"],
            (
                f"answers quoting a whole sentence {got['whole answers']:.0%} (full history"
                f" {full['whole answers']:.0%})"
            ),
        ),
        (
            "cost",
            got["cost"] <= limit,
            (
                f"${got['cost']:.5f}, {got['cost'] / full['cost']:.2f}x the full history "
                f"(target at most {COST_SHARE:.2f}x)"
            ),
        ),
    ]


def reference_config():
    """One configuration that meets the target (there are others)."""
    from harness.probes import STRATEGIES, with_knobs

    return with_knobs(
        STRATEGIES["compaction at threshold"],
        context_budget=1_500,
        keep_recent_turns=1,
        summary_words=100,
    )


OPENING = (  # the panel's configuration until my_config() returns one: it misses the target
    "capped outputs"
)


@checked
def opening_config(my_config: Callable):
    """(strategy, note): what `my_config()` returns, or STRATEGIES[OPENING] and one line saying why
    when it raises (not written yet, a misspelt knob) or returns something else."""
    from harness.probes import STRATEGIES, Strategy

    try:
        strategy = my_config()
    except NotImplementedError:
        return (
            STRATEGIES[OPENING],
            f"my_config() is not written yet: the panel opens on {OPENING!r}.",
        )
    except Exception as error:  # noqa: BLE001 - any mistake of the student's: the panel must still open
        return (
            STRATEGIES[OPENING],
            f"my_config() raised {type(error).__name__}: {error}. The panel opens on {OPENING!r}.",
        )
    if not isinstance(strategy, Strategy):
        return (
            STRATEGIES[OPENING],
            (
                f"my_config() returned {type(strategy).__name__}, not a Strategy: "
                f"the panel opens on {OPENING!r}."
            ),
        )
    return strategy, ""

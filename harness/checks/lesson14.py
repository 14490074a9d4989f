"""Check for lesson 12, the capstone: 14.1 a configuration that meets a stated target, run for real.

The target, its measurement and its verdict live in harness/capstone.py (the lesson and its panel
read them too); this module only holds the check and its hints.
"""

from harness.capstone import full_history, measure, verdict
from harness.checks import call, exercise, rule

# Each target of harness.capstone.verdict (in the order verdict gives them, which the check
# follows): what the check says when it is missed (before the measured readout), and its hint;
# "TARGET, compacting" is the hint for a strategy that compacts, where the plain one would blame the
# lack of a technique. harness.checks.docs reads it too, to show 14.1's recorded wrong
# configurations without running their sessions again.
MISSED = {
    "window": (
        "The window is exceeded",
        (
            "Capping the outputs cannot be enough: the questions and answers alone outgrow this"
            " window. Something must shrink the session as it grows; a threshold (ratio x budget)"
            " well under the window leaves room for the next search result."
        ),
    ),
    # The same target missed by a strategy that compacts: its threshold, not the lack of a
    # technique.
    "window, compacting": (
        "The window is exceeded",
        (
            "Your compaction fires too late for this window: it waits until a prompt passes "
            "compact_ratio x context_budget, the next request adds a whole search result, and the "
            "summariser's own call must fit too. Put that threshold well under the window."
        ),
    ),
    "recall": (
        "A planted fact was lost",
        (
            "Each compaction keeps only as many facts as its word budget holds: read the summaries"
            " in the recording, then give the summary more room or compact less often. A session"
            " stopped by its token cap never asks its last probes."
        ),
    ),
    "whole answers": (
        "The answers are cut",
        (
            "The tutor quotes the passages in its window: a cap that cuts them into fragments"
            " leaves it nothing whole to quote. Shrink the history another way."
        ),
    ),
    "cost": (
        "Too expensive",
        (
            "Every compaction is a summariser call plus a rewritten prefix paid at the full rate: "
            "compact less often, or keep more of each result out of the history."
        ),
    ),
}


# two whole sessions: ~9 s on the glass box, minutes on Gemini
@exercise(
    "14.1",
    "a configuration that meets the target",
    reference="harness.capstone.reference_config",
    time_limit=600,
)
def check_target(my_config):
    from harness.probes import Strategy

    strategy = call("14.1", my_config)
    rule(
        isinstance(strategy, Strategy),
        "14.1",
        f"my_config() should return a Strategy; got {type(strategy).__name__}.",
        "Start from one of STRATEGIES and change knobs with with_knobs(strategy, knob=value).",
    )
    got, full = measure(strategy), full_history()
    met = {name: (ok, readout) for name, ok, readout in verdict(got, full)}
    for target in met:
        missed, hint = MISSED[
            (
                f"{target}, compacting"
                if f"{target}, compacting" in MISSED and strategy.compaction
                else target
            )
        ]
        rule(met[target][0], "14.1", f"{missed}: {met[target][1]}.", hint)
    return "; ".join(readout for _, _, readout in verdict(got, full))

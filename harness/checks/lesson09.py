"""Check for lesson 09, the capstone: 9.1 a configuration that meets a stated target, run for real.

The target (the tutor session of 14 questions, the planted-fact probes, the prices of harness.MODEL):
    - no request above WINDOW prompt tokens (a small model's window: compaction is unavoidable),
    - every planted fact recalled,
    - a bill at most COST_SHARE of what the full history costs on the same session.
"""
from harness.checks import call, exercise, rule

WINDOW = 4_000      # prompt tokens, the largest request allowed
COST_SHARE = 0.80   # of the full history's bill on the same session


def measure(strategy) -> dict:
    """Run the target's session under `strategy`: largest request, recall, bill, compactions."""
    from harness import connect
    from harness.billing import bill, price_for
    from harness.probes import recall, run_session

    run = run_session(connect(), strategy)
    return {"largest request": max(b.prompt_tokens for b in run.bundles), "recall": recall(run),
            "cost": bill(run.usages(), price_for()), "compactions": run.compaction_count()}


@exercise("9.1", "a configuration that meets the target", reference="harness.checks.lesson09.reference_config")
def check_target(my_config):
    from harness.probes import Strategy

    strategy = call("9.1", my_config)
    rule(isinstance(strategy, Strategy), "9.1", f"my_config() should return a Strategy; got {type(strategy).__name__}.",
         "Start from one of STRATEGIES and change knobs with with_knobs(strategy, knob=value).")
    got, full = measure(strategy), measure(Strategy("full history"))
    rule(got["largest request"] <= WINDOW, "9.1",
         f"The largest request had {got['largest request']:,} prompt tokens; the window allows {WINDOW:,}.",
         "The session must compact: turn compaction on and keep the threshold (ratio x budget) well under the window.")
    rule(got["recall"] == 1.0, "9.1", f"Recall was {got['recall']:.0%}: some planted fact was lost.",
         "Each compaction keeps only as many facts as its word budget holds: read the summaries in the "
         "recording, then give the summary more room or compact less often.")
    limit = COST_SHARE * full["cost"]
    rule(got["cost"] <= limit, "9.1", f"The session cost ${got['cost']:.5f}; the target is at most ${limit:.5f} "
         f"({COST_SHARE:.0%} of the full history's ${full['cost']:.5f}).",
         "Every compaction rewrites the prefix and is paid at the full rate: compact less often, "
         "or let the summariser's own call reuse the cached prefix.")
    return (f"largest request {got['largest request']:,} tokens, recall {got['recall']:.0%}, "
            f"${got['cost']:.5f} ({got['cost'] / full['cost']:.0%} of full history)")


def reference_config():
    """One configuration that meets the target (there are others)."""
    from harness.probes import STRATEGIES, with_knobs

    return with_knobs(STRATEGIES["prefix-preserving summary"], summary_words=100)

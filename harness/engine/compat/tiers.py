"""Service tiers: the tier a request asks for (`serviceTier`) and the tier the response says served
it.

Gemini takes `"serviceTier": "flex"` or `"priority"` in a generateContent request (standard when it
is left out) and reports the tier that served the call in the `x-gemini-service-tier` response
header, which the docs read to catch a priority call downgraded to standard ([OFF]
ai.google.dev/gemini-api/docs/priority-inference and flex-inference, read 2026-12-02; the June 2026
cookbook's quickstarts/Inference_tiers saved outputs print "priority" and "flex" from it). A live
3.8 Flash response also carries `usageMetadata.serviceTier` ("standard", [3P] a client's test
fixture "confirmed against a real live response", 2026-09-19); the SDK (google-genai 3.6.1) drops
that field, so the header is what its programs see. The Interactions API takes `service_tier` and
names the tier on the interaction itself (`interaction.service_tier`, as the August 2026 cookbook's
Inference_tiers saved outputs print it; harness/engine/interactions.py).

    >>> served("SERVICE_TIER_PRIORITY"), served("flex"), served(None), served("unspecified")
    ('priority', 'flex', 'standard', 'standard')

The glass box is never overloaded, so it serves the tier asked: no downgrade, no shed flex call.
Flex bills at half the standard rate and priority at 75-100% more ([OFF] as above); `usageMetadata`
names the tier but not a price, so harness.billing bills every call at the standard rate.
"""

HEADER = "x-gemini-service-tier"


def served(asked: str | None) -> str:
    """The tier that serves a request asking for `asked` (already checked by
    fields.SERVICE_TIERS)."""
    name = (asked or "").upper().removeprefix("SERVICE_TIER_")
    return name.lower() if name in ("FLEX", "PRIORITY") else "standard"

"""The glass-box model: a deterministic, offline stand-in for Gemini behind the unmodified SDK.

`harness.connect()` starts a loopback HTTP server (once per process) that speaks the Gemini REST
wire format, so lessons call `client.models.generate_content(...)` exactly as they would online:

    client = harness.connect()                      # offline: no key, no network
    reply = client.models.generate_content(model="gemini-3.8-flash",
                                           contents="My dog is called Rex. What is my dog called?")
    reply.text  ->  'From what I can see: "My dog is called Rex."'

It is a teaching instrument, not a language model: its memory is exactly the request it is
given, its token counts use `harness.tokens.approx_tokens`, and the same request always gets the
same answer. One idea per module (tests/test_engine_layering.py checks this list against the files):

    server      the HTTP server and the routes of the REST API; the one dispatch point to compat
    wire        request validation and Google-style errors
    fields      a request's fields read as proto JSON reads them, at every depth
    limits      the model's context window, the generation settings' ranges, where an answer stops
    prompt      a request as blocks of text, and their token counts
    cache       the implicit prefix cache and the explicit `cachedContents` store
    bounded     a store held to a count and a total of bytes, the oldest dropped first
    behaviours  which behaviour answers: summariser, a scenario's policy, reader (or compat)
    scenario    the plug-in interface: a Scenario subclass per scenario, its Skills, the registry
    agent_policy  the generic coding agent every coding task's scenario subclasses
    reader      answers a question from the request, or says it does not know
    summariser  writes an extractive summary under the headings it is asked for
    thinking    how much the glass box "thinks", by a stated rule, and what it shows of it
    signatures  thought signatures, as Gemini 3 and later enforce them in function calling
    streaming   one answer as the chunks streamGenerateContent sends
    embeddings  embedContent / batchEmbedContents: vectors that follow the meanings of a small table
    models_api  models.list / models.get: the tables of harness/models.py as Model resources
    interactions        the Interactions API: server-held history replayed into the context
    interaction_input   an interaction's request as the generateContent request that answers it
    interaction_events  an interaction as server-sent events
    replay      answers from a recording of real Gemini traffic instead of the rules
    compat      (a package) what no lesson uses, kept so the wire stays faithful: JSON mode,
                function calling for unregistered tools, the OpenAI-compatible endpoint, service
                tiers. Frozen; its own docstring lists its modules.

It knows no task: each scenario of `harness/scenarios/` registers what its glass box knows when
imported (`harness.connect()` imports them). It imports only itself, `harness.tokens`,
`harness.models` and `harness.formats` (tests/test_engine_layering.py).
"""

from harness.models import MODELS

# The models the glass box answers for, and the smallest prompt (in tokens) each will cache,
# implicitly or explicitly: one row per model in harness/models.py, with its date and source.
MIN_CACHE_TOKENS = {name: row.implicit_cache_min for name, row in MODELS.items()}

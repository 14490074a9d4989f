"""The glass-box model: a deterministic, offline stand-in for Gemini behind the unmodified SDK.

`harness.connect()` starts a loopback HTTP server (once per process) that speaks the Gemini REST
wire format, so lessons call `client.models.generate_content(...)` exactly as they would online:

    client = harness.connect()                      # offline: no key, no network
    reply = client.models.generate_content(model="gemini-3.8-flash",
                                           contents="My dog is called Rex. What is my dog called?")
    reply.text  ->  'From what I can see: "My dog is called Rex."'

It is a teaching instrument, not a language model: its memory is exactly the request it is
given, its token counts use `harness.tokens.approx_tokens`, and the same request always gets the
same answer. One idea per module:

    server      the HTTP server and the routes of the REST API
    wire        request validation and Google-style errors
    prompt      a request as blocks of text, and their token counts
    cache       the implicit prefix cache and the explicit `cachedContents` store
    behaviours  which behaviour answers a request: summariser, a scenario's policy, caller or reader
    scenario    the plug-in interface: a Scenario subclass per scenario, its Skills, the registry
    agent_policy  the generic coding agent every coding task's scenario subclasses
    caller      tools no scenario knows: function calling in AUTO, ANY and NONE modes, or the reader
    function_choice  which declared functions a request asks for (words shared with each)
    call_arguments   the arguments of a call, from what the request shows
    reader      answers a question from the request, or says it does not know
    summariser  writes an extractive summary under the headings it is asked for
    embeddings  embedContent / batchEmbedContents: vectors that follow the meanings of a small table
    models_api  models.list / models.get: the tables of harness/models.py as Model resources
    tiers       the service tier a request asks for, and the header that says which served it
    openai_compat   a Chat Completions request read as a generateContent request
    openai_answers  the OpenAI-compatible endpoint's routes, answers, streams and errors

It knows no task: each scenario of `harness/scenarios/` registers what its glass box knows when
imported (`harness.connect()` imports them). It imports only itself, `harness.tokens`,
`harness.models` and `harness.formats` (tests/test_engine_layering.py).
"""
from harness.models import MODELS

# The models the glass box answers for, and the smallest prompt (in tokens) each will cache,
# implicitly or explicitly: one row per model in harness/models.py, with its date and source.
MIN_CACHE_TOKENS = {name: row.implicit_cache_min for name, row in MODELS.items()}

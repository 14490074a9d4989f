"""One row per Gemini model id: prices, cache minimum, token limits, thought signatures, thinking.

The single list of the models the workbook knows. Billing prices a session from it, the glass box
serves exactly these ids (and answers `models.get` with their limits), and `harness.MODEL` must be
one of them. Beside the generative rows: the ids Gemini routes to another model (ROUTED), the
`-latest` aliases (LATEST), the ids it has shut down (SHUT_DOWN: a 404) and the embedding models
(EMBEDDING_MODELS). Each row carries the date and the source of its figures, because Gemini's prices
and rules change monthly: check the provider's pages before you rely on a row.

    >>> row = model_row("models/gemini-3.8-flash")
    >>> row.input_token_limit, row.implicit_cache_min, row.signatures_required
    (1048576, 4096, True)
    >>> price_of("gemini-2.5-flash").cached_input
    0.03
    >>> model_row("gemini-3.7-flash").id          # deprecated 2026-10-08: Gemini serves 3.8 Flash
    'gemini-3.8-flash'
    >>> price_of("gemini-3.8-flash", on="2027-01-15").input   # the introductory rate ends
    1.5
    >>> model_row("gemini-9-ultra")
    Traceback (most recent call last):
    ...
    harness.models.UnknownModel: The workbook knows no model 'gemini-9-ultra'. Known: ...
    >>> model_row("learnlm-2.0-flash-experimental")
    Traceback (most recent call last):
    ...
    harness.models.UnknownModel: The workbook knows no model 'learnlm-2.0-flash-experimental' to call: Gemini shut it down on 2025-12-03 and answers it with a 404. Use gemini-3.8-flash instead.

Sources are named as [OFF] (an official Google page or the SDK) or [3P] (third-party reports only),
with the date they were read. Leaf module: it imports nothing of the harness but the argument
checks.
"""  # noqa: E501

import datetime
import os
from dataclasses import dataclass

from harness.plumbing.arguments import checked, require_fields, shown

DEFAULT_MODEL = (  # the current Flash; gemini-2.5-flash is closed to new keys (see its row)
    "gemini-3.8-flash"
)


@dataclass(frozen=True)
class Price:
    """Rates in dollars per million tokens; storage in dollars per million tokens per hour.

    `storage_per_hour` is None where no explicit-cache rent is published (implicit caching only).
    """

    input: float
    cached_input: float
    output: float  # thinking tokens bill at this rate too
    storage_per_hour: float | None = 0.0
    note: str = ""

    def __post_init__(self):
        # A rate is a finite number >= 0 (`Price(input=-1, cached_input=nan)` would bill nonsense
        # silently).
        for name in ("input", "cached_input", "output", "storage_per_hour"):
            value = getattr(self, name)
            if value is None and name == "storage_per_hour":
                continue
            wanted = (
                f"Price: {name} must be a finite number of dollars per million tokens, at least 0,"
                f" got {value!r}."
            )
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise TypeError(wanted)
            if not 0 <= value < float("inf"):
                raise ValueError(wanted)
        if not isinstance(self.note, str):
            raise TypeError(
                f"Price: note must be a string, got {type(self.note).__name__} {self.note!r}."
            )

    def __repr__(self):
        return (
            f"Price(input={self.input}, cached_input={self.cached_input}, output={self.output}, "
            f"storage_per_hour={self.storage_per_hour})"
        )


@dataclass(frozen=True)
class Model:
    """What the workbook knows of one model id, as of `as_of`, from `source`."""

    id: str
    price: Price
    implicit_cache_min: (
        int  # the shortest prompt (tokens) whose prefix the implicit cache will take
    )
    input_token_limit: int
    output_token_limit: int
    signatures_required: (
        bool  # function calling needs the thoughtSignature back in the current turn
    )
    default_thinking: (
        str  # "minimal" | "low" | "medium" | "high" | "dynamic" (a 2.5 thinking budget) | "off"
    )
    # what `thinking_level` accepts; () = budget-based thinking only
    thinking_levels: tuple[str, ...]
    status: str  # "live" | "preview" | "closed to new keys"
    as_of: str
    source: str
    replacement: str = ""  # what to use instead, where the status says it is going away
    note: str = ""
    later_price: Price | None = None  # the rate after `price_until`, where a change is announced
    price_until: str = (
        ""  # the last day (ISO) of `price`, as the pricing page words it ("until 2026-12-31")
    )
    # A function response turn may say role "function" or "tool" (Google's 2024 REST examples); from
    # 3.5 on that is a 400 and only "user" goes: see FUNCTION_ROLE_REFUSED below.
    function_role_accepted: bool = True
    # 3.5 Flash-Lite's breaking changes ([OFF] Google Cloud model page 'Gemini 3.5 Flash-Lite', read
    # 2026-12-02): custom presence/frequency penalties "throw an error", and so does a request whose
    # last turn is the model's (a prefill: contents ending on role "model", or an interaction input
    # ending on a model_output).
    penalties_refused: bool = False
    prefill_refused: bool = False

    def __post_init__(self):
        # a row prices every bill and bounds every request: it holds what it says
        require_fields(self)

    @property
    def open_to_new_keys(self) -> bool:
        return self.status != "closed to new keys"

    def price_on(self, day: str | datetime.date | None = None) -> Price:
        """The rate in force on `day` (default today): `later_price` once `price_until` has
        passed."""
        day = (
            datetime.date.fromisoformat(day)
            if isinstance(day, str)
            else (day or datetime.date.today())
        )
        if (
            self.later_price
            and self.price_until
            and day > datetime.date.fromisoformat(self.price_until)
        ):
            return self.later_price
        return self.price


# NOTE: prices are the paid tier's, prompts up to 200k tokens. A scheduled price change is in
# `note`; the row holds the rate in force on `as_of`.
_ROWS = (
    Model(
        "gemini-3.8-flash",
        Price(0.75, 0.075, 3.75, 0.50, note="introductory, until 2026-12-31"),
        4096,
        1_048_576,
        65_536,
        True,
        "medium",
        ("low", "medium", "high"),
        "live",
        "2026-12-01",
        "[OFF] models page and caching page (updated 2026-10-13); prices [OFF] pricing page copies,"
        " Sept-Oct 2026; cached and storage rates [3P] (LiteLLM announcement, APIYI model page)",
        note="the current Flash; thinking_level minimal is an error on this model",
        # [OFF] pricing page copies, Sept-Oct 2026: "0.75 until 2026-12-31, then 1.50" (output 3.75
        # then 7.50, storage 0.50 then 1.00 [3P]); the cached rate is taken to stay at 10% of input,
        # as on every 3.x row. Read as: 2026-12-31 is the last introductory day (the page's
        # "until"); whether the change lands at the start or the end of that day is not stated.
        later_price=Price(1.50, 0.15, 7.50, 1.00),
        price_until="2026-12-31",
        function_role_accepted=False,
    ),
    Model(
        "gemini-3.6-flash",
        Price(1.50, 0.15, 7.50, 1.00),
        4096,
        1_048_576,
        65_536,
        True,
        "medium",
        ("low", "medium", "high"),
        "live",
        "2026-12-01",
        "[OFF] ai.google.dev/gemini-api/docs/whats-new-gemini-3.6 (read 2026-12-01: default"
        " thinking medium, $1.50 input / $7.50 output, 1M context, 64K output) and caching page"
        " (4,096, updated 2026-10-13); cached rate taken as 10% of input [OFF caching page];"
        " storage [3P]",
        note="previous-generation Flash, still served; gemini-3.5-flash is routed here",
        function_role_accepted=False,
    ),
    Model(
        "gemini-3.5-flash-lite",
        Price(0.30, 0.03, 2.50, None),
        4096,
        1_048_576,
        65_536,
        True,
        "minimal",
        ("minimal", "low", "medium", "high"),
        "live",
        "2026-12-01",
        "[OFF] Google Cloud model page 'Gemini 3.5 Flash-Lite' (limits, default minimal thinking,"
        " 'a suitable replacement model for Gemini 2.5 Flash'); input/output [OFF] pricing copies;"
        " cached [3P]; cache minimum assumed equal to the other 3.x rows",
        note="ignores temperature/top_p/top_k; a request ending on a model turn is an error",
        function_role_accepted=False,
        penalties_refused=True,
        prefill_refused=True,
    ),
    Model(
        "gemini-3.1-pro-preview",
        Price(2.00, 0.20, 12.00, 4.50, note="above 200k tokens: 4.00 input, 18.00 output"),
        4096,
        1_048_576,
        65_536,
        True,
        "high",
        ("low", "medium", "high"),
        "preview",
        "2026-12-01",
        "[OFF] caching page (updated 2026-10-13), pricing page copies; cached and storage rates"
        " [3P]",
    ),
    Model(
        "gemini-3.1-flash-lite",
        Price(0.25, 0.025, 1.50, None),
        4096,
        1_048_576,
        65_536,
        True,
        "minimal",
        ("minimal", "low", "medium", "high"),
        "live",
        "2026-12-01",
        "[OFF] deprecations page (released 2026-05-07, earliest shutdown 2027-05-07) and Google"
        " Cloud model page (1,048,576 / 65,536, thinking levels minimal to high); prices [3P]"
        " (Vercel AI Gateway, APIYI, July 2026); default thinking and cache minimum assumed as for"
        " 3.5 Flash-Lite",
        replacement="gemini-3.5-flash-lite",
        note="earliest shutdown 2027-05-07",
    ),
    Model(
        "gemini-4-argon",
        Price(4.00, 0.20, 20.00, None, note="introductory 2.00 / 0.10 / 10.00 until 2026-11-30"),
        4096,
        1_048_576,
        65_536,
        True,
        "medium",
        ("low", "medium", "high"),
        "live",
        "2026-12-01",
        "[OFF] 'latest model' guide (default thinking medium, levels low/medium/high, 1M tokens"
        " shared by input and output, 64K output by default) and caching page; cached rate [3P]"
        " (LiteLLM, TokenMeter v0.13.1)",
        note="no thinking_budget (use thinking_level); implicit caching only",
        function_role_accepted=False,
    ),
    Model(
        "gemini-3-flash-preview",
        Price(0.50, 0.05, 3.00, 1.00),
        1024,
        1_048_576,
        65_536,
        True,
        "high",
        ("minimal", "low", "medium", "high"),
        "preview",
        "2026-12-01",
        "[OFF] caching page of May 2026 (minimum 1,024); prices [3P]",
    ),
    Model(
        "gemini-2.5-flash",
        Price(0.30, 0.03, 2.50, 1.00),
        2048,
        1_048_576,
        65_536,
        False,
        "dynamic",
        (),
        "closed to new keys",
        "2026-12-01",
        "[OFF] caching page updated 2026-10-13 (2,048; an older version said 1,024) and pricing"
        " page; closed to new users: [3P] issue reports quoting the 404 since July 2026, shutdown"
        " 2026-12-01 per [3P] trackers",
        replacement="gemini-3.5-flash-lite",
    ),
    Model(
        "gemini-2.5-flash-lite",
        Price(0.10, 0.01, 0.40, 1.00),
        2048,
        1_048_576,
        65_536,
        False,
        "off",
        (),
        "closed to new keys",
        "2026-12-01",
        "[OFF] pricing page copies; closed to new keys [3P]",
        replacement="gemini-3.5-flash-lite",
    ),
    Model(
        "gemini-2.5-pro",
        Price(1.25, 0.125, 10.00, 4.50, note="prompts up to 200k tokens"),
        2048,
        1_048_576,
        65_536,
        False,
        "dynamic",
        (),
        "closed to new keys",
        "2026-12-01",
        "[OFF] caching page (2,048) and pricing page; closed to new keys and shutdown 2026-12-01"
        " [3P]",
        replacement="gemini-3.1-pro-preview",
    ),
)
MODELS: dict[str, Model] = {row.id: row for row in _ROWS}

# Ids Gemini still answers by serving another model (the response's `modelVersion` names the one
# that answered): [OFF] changelog, 2026-10-08 ("gemini-3.7-flash and gemini-3.5-flash ... routed to
# 3.8 / 3.6 Flash"); gemini-3-pro-preview, shut down 2026-03-09 and redirected to 3.1 Pro Preview
# [3P] (continuedev/continue PR #11793, 2026-03-25; crewAIInc/crewAI PR #7003, 2026-08-27: "the id
# now aliases to gemini-3.1-pro-preview"). models.list keeps them: the August 2026 cookbook's saved
# listing (quickstarts/Models.ipynb, 2026-07-21) still holds models/gemini-3-pro-preview four months
# after its redirect, so a routed id is listed as itself.
ROUTED = {
    "gemini-3.7-flash": "gemini-3.8-flash",
    "gemini-3.5-flash": "gemini-3.6-flash",
    "gemini-3-pro-preview": "gemini-3.1-pro-preview",
}
# Ids Gemini has shut down: every method answers the plain 404 of an id it does not know (NOT_FOUND
# below; a shut-down model is "completely turned off, and the endpoint is no longer available",
# [OFF] deprecations page, read 2026-12-02), and models.list leaves them out. Each: (shut down on,
# what to use instead, source).
SHUT_DOWN = {
    "learnlm-2.0-flash-experimental": (
        "2025-12-03",
        DEFAULT_MODEL,
        (
            "[OFF] docs/learnlm ('no longer a separate "
            "listing ... integrated into Gemini starting with the 2.5 model series'); "
            "date [3P] a project's notes of 2026-09-21: no learnlm-* among the 58 "
            "models its key lists"
        ),
    ),
    "learnlm-1.5-pro-experimental": (
        "2025-12-03",
        DEFAULT_MODEL,
        (
            "as learnlm-2.0-flash-experimental, the last "
            "LearnLM id to stop [3P]; its own date was not found"
        ),
    ),
    "gemini-1.5-flash": (
        "2025-09-29",
        "gemini-3.5-flash-lite",
        (
            "[OFF] changelog 2025-09-29 ('now deprecated'), as "
            "quoted in YMP-CO/ReOldAi #4; its 404 quoted in continuedev/continue #11337 (2026-03)"
        ),
    ),
    "gemini-1.5-pro": (
        "2025-09-29",
        "gemini-3.1-pro-preview",
        "[OFF] changelog 2025-09-29 (as above)",
    ),
    "gemini-1.5-flash-8b": (
        "2025-09-29",
        "gemini-3.1-flash-lite",
        "[OFF] changelog 2025-09-29 (as above)",
    ),
    # NOTE: two new-key probes of July 2026 got a 429 (quota), not a 404, for 2.0 Flash and
    # Flash-Lite [3P] (solanabr/superteam-academy PR #473, interviewstreet/hiring-agent #378); later
    # reports say 404.
    "gemini-2.0-flash": (
        "2026-06-01",
        "gemini-3.8-flash",
        (
            "[OFF] changelog 2026-02-18 (shut down 2026-06-01); "
            "'now returns 404' [3P] embabel docs, crewAIInc/crewAI PR #7003 (2026-08-27)"
        ),
    ),
    "gemini-2.0-flash-001": ("2026-06-01", "gemini-3.8-flash", "[OFF] changelog 2026-02-18"),
    "gemini-2.0-flash-lite": ("2026-06-01", "gemini-3.5-flash-lite", "[OFF] changelog 2026-02-18"),
    "gemini-2.0-flash-lite-001": (
        "2026-06-01",
        "gemini-3.5-flash-lite",
        "[OFF] changelog 2026-02-18",
    ),
    "gemini-3.1-flash-lite-preview": (
        "2026-05-25",
        "gemini-3.1-flash-lite",
        "[OFF] changelog 2026-05-25",
    ),
    "text-embedding-004": ("2026-01-14", "gemini-embedding-001", "[OFF] changelog 2026-01-14"),
    "embedding-001": (
        "2025-10",
        "gemini-embedding-001",
        (
            "[OFF] Gemini Embedding GA post, developers.googleblog.com (2025): deprecated from"
            " 2025-08-14; shut down October 2025 [3P] langgenius/dify-official-plugins #2515"
        ),
    ),
}
# Google's hosted agents, which answer only through the Interactions API (`agent=`): generateContent
# and the OpenAI endpoint give the 400 below for them ([3P] quoted whole in lobehub/lobehub #15140,
# 2026-05-23, and router-for-me/CLIProxyAPI #5312, 2026-08-28; the same error for
# antigravity-preview-05-2026 in mlcommons/modelbench #1655, 2026-09-14). The glass box runs none of
# them (harness/engine/interactions.py).
AGENTS = (
    "deep-research-preview-04-2026",
    "deep-research-max-preview-04-2026",
    "deep-research-pro-preview-12-2025",
    "antigravity-preview-05-2026",
)
INTERACTIONS_ONLY = "This model only supports Interactions API."
# Gemini's 404 for an id it does not serve, a shut-down one included ([3P] quoted whole in many
# reports, e.g. openclaw/openclaw #14036 and continuedev/continue #11649, 2026). The glass box adds
# a sentence naming what it serves only for an id this table has never heard of.
NOT_FOUND = (
    "models/{model} is not found for API version {version}, or is not supported for {method}. Call "
    "ListModels to see the list of available models and their supported methods."
)


@dataclass(frozen=True)
class EmbeddingModel:
    """What the workbook knows of one embedding model (embedContent / batchEmbedContents)."""

    id: str
    version: str
    input_token_limit: int  # text past it is not read (the glass box's choice: not a 400)
    price_per_million_input: float  # dollars
    multimodal: bool  # embeds inline images, audio, video and PDFs besides text
    as_of: str
    source: str
    dimensions: int = 3072  # the default and the largest outputDimensionality

    def __post_init__(self):
        require_fields(self)


EMBEDDING_MODELS: dict[str, EmbeddingModel] = {
    row.id: row
    for row in (
        EmbeddingModel(
            "gemini-embedding-001",
            "001",
            2048,
            0.15,
            False,
            "2026-12-01",
            "[OFF] docs/models/gemini-embedding-001 (input 2,048; dimensions 128-3072, recommended"
            " 768, 1536, 3072), docs/embeddings and the GA post on developers.googleblog.com, read"
            " 2026-12-01",
        ),
        EmbeddingModel(
            "gemini-embedding-2",
            "2",
            8192,
            0.20,
            True,
            "2026-12-01",
            "[OFF] docs/models/gemini-embedding-2 (GA 2026-04-22, changelog; dimensions 128-3072);"
            " input 8,192 and price [3P] model pages of AI gateways (Vercel, OpenRouter), read"
            " 2026-12-01",
        ),
    )
}
# What models.list says an embedding model supports: [3P] a copy of a real listing (2025) gives
# ["embedContent", "countTextTokens", "countTokens"] for gemini-embedding-001. batchEmbedContents
# (what the SDK's embed_content sends) is served too, though the listing does not name it;
# countTextTokens (a PaLM-era method no SDK of today calls) is listed as Gemini lists it but not
# served by the glass box.
EMBEDDING_METHODS = ("embedContent", "countTextTokens", "countTokens")

# The `-latest` aliases, served on v1beta only (google-genai >= 3.0 calls v1 unless told
# `api_version="v1beta"`). [OFF] models page, "Latest" version pattern (read 2026-12-01); what each
# points to today is this table's reading of the models page (the current Flash, Flash-Lite and
# Pro), not a figure Google publishes per alias.
LATEST = {
    "gemini-flash-latest": "gemini-3.8-flash",
    "gemini-flash-lite-latest": "gemini-3.5-flash-lite",
    "gemini-pro-latest": "gemini-3.1-pro-preview",
}
# A project that used the 2.5 models before September 2026 still has them: set this to 1 and the
# glass box serves them as Gemini serves such a project. Unset (a new key), they get Gemini's 404
# below.
LEGACY_SETTING = "WORKBOOK_LEGACY_MODELS"
# Gemini's 400 for a function response turn under role "function" (or "tool") on the models from 3.5
# on, as quoted whole on gemini-3.7-flash in blakeblackshear/frigate PR #24013 (2026-08-16); the
# same refusal in sashiko-dev/sashiko PR #500 (2026-09-10), firebase/quickstart-ios PR #1871 ("no
# longer true for Gemini 3.5", 2026-09-12) and genkit-ai/genkit PR #5777 ("for latest models",
# 2026-07-21) [3P], read 2026-12-02. Which older 3.x rows still take it is not reported: they keep
# the 2024 behaviour.
FUNCTION_ROLE_REFUSED = (
    "Role '{role}' is not supported. Please use a valid role: SYSTEM, SYSTEM_1, USER, ASSISTANT, "
    "DEVELOPER, CONTEXT, USER_CONTEXT, MODEL, USER."
)
# [3P] issue reports quoting Gemini's 404, July-Aug 2026.
CLOSED_TO_NEW_KEYS = (
    "This model models/{model} is no longer available to new users. Please update your code to "
    "use a newer model for the latest features and improvements."
)


def legacy_models_allowed() -> bool:
    """True when the project says it still has the models closed to new keys
    (WORKBOOK_LEGACY_MODELS=1)."""
    return os.environ.get(LEGACY_SETTING, "") not in ("", "0")


class UnknownModel(ValueError):
    """A model id the workbook has no row for."""


def model_row(model: str) -> Model:
    """The row for `model` ("models/" prefix allowed; a routed id or a `-latest` alias gives the
    row of the model that answers it); UnknownModel names the ids that exist."""
    if not isinstance(model, str) or not model.strip():
        raise UnknownModel(
            f"A model id must be a non-empty string like {DEFAULT_MODEL!r}, not {shown(model)}."
        )
    name = model.strip().removeprefix("models/")
    name = ROUTED.get(name) or LATEST.get(name) or name
    if name in SHUT_DOWN:
        day, replacement, _ = SHUT_DOWN[name]
        raise UnknownModel(
            f"The workbook knows no model {name!r} to call: Gemini shut it down on {day} and "
            f"answers it with a 404. Use {replacement} instead."
        )
    if name in EMBEDDING_MODELS:
        raise UnknownModel(
            f"The workbook knows no model {name!r} to generate with: it is an embedding model "
            f"(client.models.embed_content). Generate with one of {', '.join(live_models())}."
        )
    if name not in MODELS:
        raise UnknownModel(
            f"The workbook knows no model {shown(name)}. Known: {', '.join(MODELS)}. "
            "Set WORKBOOK_MODEL to one of them, or add a row to harness/models.py."
        )
    return MODELS[name]


def _day(name: str, day) -> None:
    """None, a datetime.date, or an ISO date string ("2027-01-15")."""
    if day is None or isinstance(day, datetime.date):
        return
    if not isinstance(day, str):
        raise TypeError(
            f"{name} must be a date (datetime.date or 'YYYY-MM-DD') or None, got "
            f"{type(day).__name__} {shown(day)}."
        )
    try:
        datetime.date.fromisoformat(day)
    except ValueError:
        raise ValueError(
            f"{name} must be a day written YYYY-MM-DD, such as '2027-01-15', got {shown(day)}."
        ) from None


def require_model(name: str, model) -> None:
    """A model id the workbook has a row for (model_row's rule), before any call is made with it."""
    if not isinstance(model, str):
        raise TypeError(
            f"{name} must be a model id (a string) like {DEFAULT_MODEL!r}, got"
            f" {type(model).__name__} {shown(model)}."
        )
    try:
        model_row(model)
    except UnknownModel as unknown:
        raise UnknownModel(f"{name}: {unknown}") from None


@checked(on=_day)
def price_of(model: str, on: str | datetime.date | None = None) -> Price:
    """The Price of `model`: the row's rate as of its `as_of`, or the one in force on the day
    `on`."""
    row = model_row(model)
    return row.price if on is None else row.price_on(on)


def live_models() -> list[str]:
    """Ids open to a brand-new key, in table order (what to suggest when a model is refused)."""
    return [row.id for row in _ROWS if row.open_to_new_keys]

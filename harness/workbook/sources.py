"""The sources a lesson quotes figures from, named as each source names itself.

The workbook grew from five texts in French (kept beside the project, in `shared/seeds/`) and
leans on Google's Gemini API pages for prices and cache sizes. A lesson names a source in its text
by `cite` (the title in its own language) and lists it in full in its "Sources" cell, which
`sources_cell` writes:

>>> print(sources_cell("ordering"))
## Sources
<BLANKLINE>
Figures marked *as reported* come from these sources; figures marked *measured here* come from this notebook's own cells.
<BLANKLINE>
- « Ordonner le contexte et tenir un budget » (*Ordering the context and keeping to a budget*), in « Leçon 2 — La fenêtre de contexte comme ressource » (*Lesson 2: the context window as a resource*) of the course « Atelier » (*Workshop*); no author named; in French. The five-block order and `build_context` under a budget; its local run of 2026-10-15.
<BLANKLINE>
Terms: see the [glossary](GLOSSARY.md).
"""  # noqa: E501

from dataclasses import dataclass

from harness.plumbing.arguments import require_text


@dataclass(frozen=True)
class Source:
    cite: str  # how a lesson's text names it: its own title, in its own language
    gloss: str  # an English gloss of that title ("" when it is in English)
    within: str  # the larger work it belongs to, as it names itself (or "")
    author: str  # as the source names its author; what it says when it names none
    language: str
    covers: str  # what the workbook takes from it
    cue: str  # words that show a lesson's text cites it

    def entry(self) -> str:
        gloss = f" (*{self.gloss}*)" if self.gloss else ""
        within = f", in {self.within}" if self.within else ""
        return f"- {self.cite}{gloss}{within}; {self.author}; in {self.language}. {self.covers}"


SOURCES = {
    "context budget": Source(
        "« Le budget de contexte »",
        "The context budget",
        "« Leçon 5 — Contexte et reprise » (*Lesson 5: context and resuming*) of the course «"
        " Atelier » (*Workshop*)",
        "no author named",
        "French",
        "Tool-output truncation (4,000 characters, 40% head, 60% tail), the session cap, compaction"
        " at 0.7 x budget cutting just before a model message, harness-held state; a real Gemini"
        " run of its demo agent on 2026-10-15.",
        "Le budget de contexte",
    ),
    "ordering": Source(
        "« Ordonner le contexte et tenir un budget »",
        "Ordering the context and keeping to a budget",
        "« Leçon 2 — La fenêtre de contexte comme ressource » (*Lesson 2: the context window as a"
        " resource*) of the course « Atelier » (*Workshop*)",
        "no author named",
        "French",
        "The five-block order and `build_context` under a budget; its local run of 2026-10-15.",
        "Ordonner le contexte",
    ),
    "agent-010": Source(
        "« Agent-010 : Un agent qui gère le Contexte »",
        "Agent-010: an agent that manages its context",
        "a series that builds an agent step by step (this is its tenth step, after « agent-003 »)",
        "no author named",
        "French (the page offers an English version)",
        "Compaction that cuts only at real user turns, with the summary as a user and assistant"
        " pair.",
        "Agent-010",
    ),
    "tutor": Source(
        "the Towards AI tutor article",
        "the text gives itself no title; it opens « La version courte », The short version",
        "a write-up of a workshop at the AI Engineer World's Fair on Towards AI's production AI"
        " tutor",
        "its author writes in the first person without giving a name, and names the co-presenters "
        "Omar Solano and Samridhi Vaid",
        "French",
        "Full history against summarising with prompt caching: recall, cost, cache hits, the 38%"
        " saving of capped tool outputs, the break-even cached price, planted-fact probes.",
        "tutor article",
    ),
    "optimisation": Source(
        "« Techniques d'Optimisation de Contexte »",
        "Context optimisation techniques",
        "the skill « optimisation-de-contexte »",
        "no author named",
        "French",
        "Ordering for the KV cache, observation masking (after 3 turns, never an active error),"
        " compaction triggers and reduction targets, budgets per category with triggers and the"
        " decision table by what dominates, partitioning across sub-agents.",
        "Techniques d'Optimisation",
    ),
    "gemini caching": Source(
        "“Context caching”",
        "",
        "Google's Gemini API documentation, ai.google.dev/gemini-api/docs/caching",
        "Google",
        "English",
        "Implicit caching and its minimum prompt size per model (page last updated 2026-10-13).",
        "“Context caching”",
    ),
    "gemini pricing": Source(
        "“Gemini Developer API pricing”",
        "",
        "Google's Gemini API documentation, ai.google.dev/gemini-api/docs/pricing",
        "Google",
        "English",
        "Paid-tier rates per million tokens (copies of the page from September-October 2026; "
        "see `harness/models.py` for each row's date).",
        "“Gemini Developer API pricing”",
    ),
    "gemini interactions": Source(
        "“Interactions API”",
        "",
        "Google's Gemini API documentation, ai.google.dev/gemini-api/docs/interactions",
        "Google",
        "English",
        "Status, server-side state with `previous_interaction_id`, what carries over between"
        " interactions, storage and retention (55 days on the paid tier, 1 day on the free tier),"
        " `store=false`, implicit caching only (read 2026-12-02).",
        "“Interactions API”",
    ),
    "gemini interactions streaming": Source(
        "“Streaming interactions”",
        "",
        "Google's Gemini API documentation, ai.google.dev/gemini-api/docs/interactions/streaming",
        "Google",
        "English",
        "The server-sent events of `stream=True`, in order (read 2026-12-02).",
        "“Streaming interactions”",
    ),
    "rrf": Source(
        "“Reciprocal Rank Fusion outperforms Condorcet and individual Rank Learning Methods”",
        "",
        "the proceedings of SIGIR 2009 (doi 10.1145/1571941.1572114)",
        "Gordon V. Cormack, Charles L. A. Clarke and Stefan Büttcher",
        "English",
        "Reciprocal rank fusion: the sum of 1/(k + rank) over the rankings that hold a document, k"
        " = 60.",
        "Reciprocal Rank Fusion outperforms",
    ),
    "bm25s": Source(
        "“BM25S: Orders of magnitude faster lexical search via eager sparse scoring”",
        "",
        "a technical report on the library `bm25s` (arXiv 2407.03618, 2024)",
        "Xing Han Lù",
        "English",
        "The BM25 keyword search lesson 12 runs (tokenising, indexing, the top k).",
        "BM25S: Orders of magnitude",
    ),
    "openai memory": Source(
        "“Context Engineering for Personalization - State Management with Long-Term Memory Notes"
        " using OpenAI Agents SDK”",
        "",
        "the OpenAI Cookbook, cookbook.openai.com/examples/agents_sdk/context_personalization",
        "OpenAI",
        "English",
        "State-based memory across sessions: distill notes while a run goes, consolidate them at"
        " its end (duplicates merged, conflicts resolved, the newer winning), inject the memory at"
        " the start of the next run with precedence rules; memory as an injection surface to guard"
        " (page dated 2026-01-05, read 2026-12-03).",
        "“Context Engineering for Personalization",
    ),
    "google sessions memory": Source(
        "“Context Engineering: Sessions & Memory”",
        "",
        "a Google whitepaper of November 2025",
        "Kimberly Milam and Antonio Gulli, Google",
        "English",
        "A session (one conversation's events and working state) against memory (facts extracted"
        " from sessions and consolidated across them, newer information winning a contradiction);"
        " memory against retrieval; memory poisoning and provenance (read 2026-12-03 through public"
        " summaries of the paper, not the paper itself).",
        "Sessions & Memory",
    ),
    "anthropic memory tool": Source(
        "“Memory tool”",
        "",
        "Anthropic's Claude documentation,"
        " docs.claude.com/en/docs/agents-and-tools/tool-use/memory-tool",
        "Anthropic",
        "English",
        "A client-side tool over a /memories folder that the model checks before a task and edits"
        " as it works; the application runs each operation and should confine them to that folder"
        " (read 2026-12-03).",
        "“Memory tool”",
    ),
    "anthropic context editing": Source(
        "“Context editing”",
        "",
        "Anthropic's Claude documentation,"
        " docs.claude.com/en/docs/build-with-claude/context-editing",
        "Anthropic",
        "English",
        "`clear_tool_uses_20250919` clears the oldest tool results once a trigger is passed"
        " (100,000 input tokens by default) and keeps the 3 most recent tool uses (by default);"
        " clearing breaks the cached prefix, so `clear_at_least` makes each clearing remove enough"
        " to be worth it (read 2026-12-03).",
        "“Context editing”",
    ),
}

INTRO = (
    "Figures marked *as reported* come from these sources; figures marked *measured here* come from"
    " this notebook's own cells."
)
GLOSSARY_LINK = "Terms: see the [glossary](GLOSSARY.md)."


def cited_in(text: str) -> list[str]:
    """The keys of the sources `text` cites, in the order of SOURCES."""
    require_text("text", text)
    return [key for key, source in SOURCES.items() if source.cue in text]


def sources_cell(*keys: str) -> str:
    """The markdown of a lesson's "Sources" cell, listing `keys` in the order given."""
    for index, key in enumerate(keys):
        require_text(f"keys[{index}]", key)
    unknown = [key for key in keys if key not in SOURCES]
    if unknown:
        raise ValueError(f"Unknown source {unknown[0]!r}; known: {', '.join(SOURCES)}.")
    entries = "\n".join(SOURCES[key].entry() for key in keys)
    return f"## Sources\n\n{INTRO}\n\n{entries}\n\n{GLOSSARY_LINK}"

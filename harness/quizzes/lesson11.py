"""Lesson 11's quiz: what changes when the server holds the history."""

from harness.quizzes import Question

QUESTIONS = [
    Question(
        "A conversation continues with previous_interaction_id, so the harness sends only the new"
        " message. What does the next turn bill as input?",
        right=(
            "The whole stored history plus the new message, most of it at the cached rate",
            (
                "The server replays everything it stored into the model's context; the implicit"
                " cache makes the replayed prefix cheap, not free."
            ),
        ),
        wrong=[
            (
                "Only the new message",
                (
                    "That is what travels over the network, not what the model reads: "
                    "usage counts the replayed history too."
                ),
            ),
            (
                "Nothing for the stored part: the server already paid for it",
                (
                    "Each turn is a new model call over the whole context; the stored part is read"
                    " again."
                ),
            ),
        ],
    ),
    Question(
        "Your server-held session nears the model's window. What can the harness do?",
        right=(
            "Compact its own copy and start a new interaction from it, with no previous id",
            (
                "Nothing stored can be rewritten, so the only lever is a new interaction from a"
                " context the harness built."
            ),
        ),
        wrong=[
            (
                "Mask the old tool outputs in the stored interaction",
                "Stored interactions are read-only: there is no call that edits their steps.",
            ),
            (
                "Delete the oldest stored interactions of the chain",
                (
                    "Deleting breaks the chain: the next previous_interaction_id gets a 404, it"
                    " does not shorten it."
                ),
            ),
        ],
        exercise="11.1",
    ),
    Question(
        "What does restarting from a compacted context cost, besides the summariser's call?",
        right=(
            (
                "The cache: the new interaction's prefix is new text, so its first turn pays the"
                " full input rate"
            ),
            "A restart changes the opening of the context, exactly as a summary does in lesson 07.",
        ),
        wrong=[
            (
                "Nothing: a compacted context is smaller, so every turn after it is cheaper",
                (
                    "The turns after it are smaller, but the restart turn loses the cached prefix,"
                    " and what the summary dropped is gone."
                ),
            ),
            (
                "Storage rent for the old interactions",
                (
                    "Storage rent is what an explicit cache bills (lesson 07); what a restart costs"
                    " is the lost cache and the facts its summary had no room for."
                ),
            ),
        ],
    ),
    Question(
        "Why can a store=false interaction not be continued with previous_interaction_id?",
        right=(
            "Nothing of it was kept, so the next turn has nothing to replay and gets a 404",
            (
                "store=false is stateless: the harness must resend the history itself, as with"
                " generateContent."
            ),
        ),
        wrong=[
            (
                "It can: store=false only hides it from interactions.get",
                "Try it in the lesson's cell: the continuation is refused.",
            ),
            (
                "It can, after a delay while the server writes it",
                "There is nothing to wait for: a store=false interaction is never written.",
            ),
        ],
    ),
    Question(
        "A support chat fits the window for its whole life, and you never need to trim it. Who"
        " should hold the history?",
        right=(
            "The server, with previous_interaction_id",
            (
                "The bill is the same as sending it yourself, the upload is a small fraction, and"
                " nothing is forgotten. Hold it in the harness when you must mask or compact it."
            ),
        ),
        wrong=[
            (
                "The harness, to keep the cache",
                (
                    "The lesson measured the same cached share both ways: the server replays the"
                    " same prefix."
                ),
            ),
            (
                "The server, restarting from a summary every few turns to save money",
                (
                    "A restart loses the cache and the planted facts; it pays only on very long"
                    " sessions, and then the facts are gone."
                ),
            ),
        ],
    ),
]

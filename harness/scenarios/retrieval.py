"""Lesson 09's retrieved documents: what a retrieval step hands the invoicing agent, most relevant
first.

A harness that retrieves passages for its agent (from a wiki, a ticket system) attaches them to
each request; they are a category of their own in the budget. These five pages of an invented
billing handbook are written for the workbook. The glass box's agent does not need them to fix
the task (its README holds the rules), which is what makes them the first thing to drop.

>>> [title for title, _ in HANDBOOK][:2]
['Commercial rounding', 'Volume discounts']
>>> retrieved_documents()[0].splitlines()[0]
'[Retrieved document 1: Commercial rounding]'
"""

from harness.formats import document_text

HANDBOOK = [
    (
        "Commercial rounding",
        (
            "Every amount on an invoice is rounded to the cent once, after the discount and before"
            " the tax total is added up. Halves go up: 2.345 becomes 2.35 and 2.355 becomes 2.36."
            " Banker's rounding, which sends halves to the even cent, is not allowed on customer"
            " documents, because a customer checking the figure by hand rounds halves up and files"
            " a complaint when the totals differ. Use decimal arithmetic for money; binary floats"
            " cannot hold most cents exactly, so 2.675 is stored as 2.67499999 and rounds down even"
            " with the right mode."
        ),
    ),
    (
        "Volume discounts",
        (
            "A line of fifty units or more gets the volume discount of ten percent. The threshold"
            " is inclusive: an order of exactly fifty units qualifies. Discounts apply per line,"
            " never on the invoice total, and they are never combined with a promotional price on"
            " the same line. The discount is shown on the invoice as its own line with the rate and"
            " the amount, so that the customer sees what was taken off and why. Credit notes"
            " reverse the discount with the line they correct."
        ),
    ),
    (
        "Invoice numbering",
        (
            "Invoice numbers run without gaps within a fiscal year and restart at one on the first"
            " of January, prefixed by the year: 2026-00017. A cancelled invoice keeps its number"
            " and is answered by a credit note; a number is never reused. Draft invoices carry no"
            " number until they are issued, which is why drafts are listed by their creation date"
            " in the back office. Auditors ask for the full sequence of a year and read any gap as"
            " a missing document."
        ),
    ),
    (
        "Payment terms",
        (
            "The standard term is thirty days from the invoice date, written on every invoice as a"
            " due date, not as a number of days. Late payments accrue interest at the statutory"
            " rate plus a fixed recovery fee for business customers; consumers pay no recovery fee."
            " Reminders go out at seven, twenty-one and forty-five days past due. A partial payment"
            " is applied to the oldest open invoice first, unless the customer names the invoice it"
            " pays in the transfer's reference."
        ),
    ),
    (
        "Archiving",
        (
            "Issued invoices and credit notes are kept for ten years in a format that cannot be"
            " edited, with their numbering sequence intact. The archive stores the document as"
            " sent, the data it was built from, and the version of the billing rules in force on"
            " its date, so that an old invoice can be explained even after the rules change."
            " Deleting an archived invoice needs two approvals and leaves a record of who deleted"
            " it and why."
        ),
    ),
]


def retrieved_documents() -> list[str]:
    """The handbook's pages as retrieved documents (`formats.document_text`), most relevant
    first."""
    return [
        document_text(rank, title, text) for rank, (title, text) in enumerate(HANDBOOK, start=1)
    ]

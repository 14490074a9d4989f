"""The slug of a product page: its title, made safe for a web address."""


def slug(title: str) -> str:
    """The slug of a product called `title`."""
    words = title.strip().lower()
    return words.replace(" ", "_")

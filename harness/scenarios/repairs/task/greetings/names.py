"""How a customer's name is printed at the top of a letter."""


def letter_name(name: str) -> str:
    """The name as printed: extra spaces removed."""
    name = " ".join(name.split())
    return name.lower()

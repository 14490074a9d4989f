"""Customer names on letters."""

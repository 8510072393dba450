"""Words the games' texts share."""


def plural(n: int, word: str) -> str:
    """ "1 card", "3 cards": a count with its noun."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"

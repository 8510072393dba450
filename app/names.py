"""Display names: what a name may contain, and telling equal names at one table apart."""

from __future__ import annotations

import unicodedata

MAX_LENGTH = 32
# Control, format (zero-width, bidi overrides and isolates, soft hyphen), surrogate,
# private-use and unassigned code points, and line or paragraph separators.
REFUSED_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
# Letters and symbols that draw as blank space.
BLANK_LOOKING = {"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800"}


def clean_name(raw: str) -> str:
    """The name to store: NFC, spaces collapsed and trimmed; ValueError with the reason."""
    for ch in raw:
        if unicodedata.category(ch) in REFUSED_CATEGORIES or ch in BLANK_LOOKING:
            raise ValueError(
                f"a name cannot contain invisible, control or text-direction characters "
                f"(U+{ord(ch):04X})"
            )
    name = " ".join(unicodedata.normalize("NFC", raw).split())
    if not 1 <= len(name) <= MAX_LENGTH:
        raise ValueError(f"a name is 1 to {MAX_LENGTH} characters long")
    if not any(unicodedata.category(ch)[0] in "LNPS" for ch in name):
        raise ValueError("a name needs at least one visible letter, digit or symbol")
    return name


def _fold(name: str) -> str:
    return unicodedata.normalize("NFKC", name).casefold()


def distinct(names: list[str]) -> list[str]:
    """The names as shown at one table: a name that an earlier seat already shows (ignoring
    case and compatibility forms) gets " (2)", " (3)"… so every seat reads differently."""
    seen: dict[str, int] = {}
    shown = []
    for name in names:
        key = _fold(name)
        seen[key] = seen.get(key, 0) + 1
        shown.append(name if seen[key] == 1 else f"{name} ({seen[key]})")
    return shown


def joined(names: list[str]) -> str:
    """Names as a sentence says them: "Gus", "Gus and Ida", "Ana, Gus and Ida"."""
    if len(names) < 2:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"

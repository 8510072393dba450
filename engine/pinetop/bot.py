"""The heuristic Camp Pinetop bot: sees only its view and the legal moves."""

from __future__ import annotations

import random


def heuristic_bot(view: dict, legal: list, rng: random.Random):
    return legal[rng.randrange(len(legal))]

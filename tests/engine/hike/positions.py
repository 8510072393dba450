"""Building Let's Take a Hike positions directly, with chosen cards on top of the draw pile."""

from __future__ import annotations

from engine.core import Rng
from engine.hike import backpack as bpk
from engine.hike.cards import CARDS, DECK_SIZE
from engine.hike.state import Hike, HikeState


class Pool:
    """Hands out card ids by item name, each id at most once."""

    def __init__(self) -> None:
        self.used: set[int] = set()

    def take(self, name: str) -> int:
        for c in CARDS:
            if c.name == name and c.id not in self.used:
                self.used.add(c.id)
                return c.id
        raise LookupError(f"no {name} left")

    def many(self, *names: str) -> list[int]:
        return [self.take(n) for n in names]


def build(
    pool: Pool,
    players: int,
    backpacks: dict[int, list[int]] | None = None,
    draw_top: list[int] = (),
    scoring: dict[int, list[int]] | None = None,
    hike: Hike | None = None,
    turn: int = 0,
    phase: str = "turn",
    rest: str = "draw",
) -> HikeState:
    """A position. ``draw_top[0]`` is the next card drawn. Every card not placed goes under
    them in the draw pile (``rest="draw"``) or into the discard pile (``rest="discard"``)."""
    backpacks = backpacks or {}
    scoring = scoring or {}
    placed = set(draw_top) | {c for cs in backpacks.values() for c in cs}
    placed |= {c for cs in scoring.values() for c in cs}
    if hike is not None:
        placed |= set(hike.pile)
    assert placed <= pool.used | set(draw_top)
    rest_cards = [c for c in range(DECK_SIZE) if c not in placed and c not in pool.used]
    draw = list(reversed(draw_top))
    discard: list[int] = []
    if rest == "draw":
        draw = rest_cards + draw
    else:
        discard = rest_cards
    packs = []
    for seat in range(players):
        arranged = bpk.arrange(backpacks.get(seat, []))
        assert arranged is not None, f"seat {seat}'s cards do not fit"
        packs.append(arranged)
    return HikeState(
        players=players,
        rng=Rng.from_seed(12345),
        draw_pile=draw,
        discard_pile=discard,
        backpacks=packs,
        scoring=[list(scoring.get(seat, [])) for seat in range(players)],
        debts=[None] * players,
        turn=turn,
        phase=phase,
        hike=hike,
    )


def all_cards(s: HikeState) -> list[int]:
    """Every card the state holds, wherever it is."""
    cards = [*s.draw_pile, *s.discard_pile]
    for bp in s.backpacks:
        cards.extend(bpk.contents(bp))
    for pile in s.scoring:
        cards.extend(pile)
    if s.hike is not None:
        cards.extend(s.hike.pile)
    if s.pending is not None:
        cards.append(s.pending)
    for hand in s.dealt:
        cards.extend(hand)
    return cards


def names(bp: dict) -> list[str]:
    return sorted(CARDS[c].name for c in bpk.contents(bp))

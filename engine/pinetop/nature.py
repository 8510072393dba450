"""The Nature expansion: setting out the pieces, shifting nature, and where each piece acts.

A shift turns up the next conditions card. The weather token becomes the forecast card's
weather and moves clockwise round the map by the new card's weather number; each animal moves
in the forecast card's direction by the new card's number for it, stopping at the map's edge.
The new card is then the forecast. An empty conditions deck is reshuffled from its discards.
"""

from __future__ import annotations

from functools import lru_cache

from engine.core import Rng
from engine.pinetop.board import in_line, ring_line, ring_size, slide
from engine.pinetop.cards import (
    BEAR,
    CHOSEN_ANIMALS,
    CONDITIONS,
    DIRECTION_NAMES,
    DIRECTIONS,
    FIXED_ANIMALS,
    RAIN,
    SUNNY,
    WIND,
)
from engine.pinetop.state import Nature, PinetopState


def set_out(rng: Rng, cells: int, animal: str) -> Nature:
    """The pieces on random map cards; the third animal is the table's choice, or else drawn
    at random."""
    deck = [c.id for c in CONDITIONS]
    rng.shuffle(deck)
    forecast = deck.pop()
    spots = list(range(cells))
    rng.shuffle(spots)
    third = CHOSEN_ANIMALS[rng.below(len(CHOSEN_ANIMALS))] if animal == "random" else animal
    animals = {a: spots[i] for i, a in enumerate((*FIXED_ANIMALS, third))}
    return Nature(
        weather=CONDITIONS[forecast].weather, animals=animals, forecast=forecast, deck=tuple(deck)
    )


def shift(s: PinetopState) -> None:
    n = s.nature
    assert n is not None  # only the Nature expansion shifts
    deck, discard = list(n.deck), list(n.discard)
    old = CONDITIONS[n.forecast]
    discard.append(old.id)
    if not deck:
        deck, discard = discard, []
        s.rng.shuffle(deck)
    new = CONDITIONS[deck.pop()]
    ring = (n.weather_pos + new.weather_steps) % ring_size(s.cols, s.rows)
    animals = {}
    moved = []
    for animal, pos in n.animals.items():
        letter, _ = old.animals[animal]
        steps = new.animals[animal][1]
        animals[animal] = slide(s.cols, s.rows, pos, *DIRECTIONS[letter], steps)
        moved.append(f"{animal.title()} {DIRECTION_NAMES[letter]} {steps}")
    s.nature = n.model_copy(
        update={
            "weather": old.weather,
            "weather_pos": ring,
            "animals": animals,
            "forecast": new.id,
            "deck": tuple(deck),
            "discard": tuple(discard),
            "shifts": n.shifts + 1,
        }
    )
    s.say(
        f"Nature shifts: {old.weather} weather moves {new.weather_steps} clockwise; "
        f"{', '.join(moved)}."
    )


def _weather_here(s: PinetopState, pos: int, weather: str) -> bool:
    n = s.nature
    return (
        n is not None
        and n.weather == weather
        and in_line(s.cols, pos, ring_line(s.cols, s.rows, n.weather_pos))
    )


def animal_at(s: PinetopState, pos: int, animal: str) -> bool:
    return s.nature is not None and s.nature.animals.get(animal) == pos


def blocked(s: PinetopState) -> frozenset[int] | tuple[()]:
    """Where no camper may be placed: the Bear's card and the windy ones."""
    n = s.nature
    if n is None:
        return ()
    wind = n.weather_pos if n.weather == WIND else None
    return _blocked(s.cols, s.rows, n.animals.get(BEAR), wind)


@lru_cache(maxsize=256)
def _blocked(cols: int, rows: int, bear: int | None, wind: int | None) -> frozenset[int]:
    line = None if wind is None else ring_line(cols, rows, wind)
    return frozenset(
        p for p in range(cols * rows) if p == bear or line is not None and in_line(cols, p, line)
    )


def bear_at(s: PinetopState) -> int | None:
    """Where the Bear stands (None: no Nature)."""
    return None if s.nature is None else s.nature.animals.get(BEAR)


def sunny(s: PinetopState, pos: int) -> bool:
    return _weather_here(s, pos, SUNNY)


def rainy(s: PinetopState, pos: int) -> bool:
    return _weather_here(s, pos, RAIN)


def windy(s: PinetopState, pos: int) -> bool:
    return _weather_here(s, pos, WIND)


def bear(s: PinetopState, pos: int) -> bool:
    return animal_at(s, pos, BEAR)

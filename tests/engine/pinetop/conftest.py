"""Tables arranged for a scenario: chosen map cards, campers, hands and patches."""

from __future__ import annotations

from engine.core import play
from engine.pinetop import GAME, supply
from engine.pinetop.cards import MAP_CARDS, SUPPLY
from engine.pinetop.state import PinetopState

RED, BLUE, YELLOW, GREEN = range(4)


def map_id(name: str) -> int:
    return next(m.id for m in MAP_CARDS if m.name == name)


def _matches(card: int, spec: str) -> bool:
    """``wood/green``: a plain wood card with a green tent; ``wood``: any plain wood card;
    ``wild``; ``wood+water``: a double card; ``wood+wild``: a double wild."""
    c = SUPPLY[card]
    if spec == "wild":
        return c.wild and not c.suits
    if "+" in spec:
        a, b = spec.split("+")
        return c.suits == ((a,) if b == "wild" else (a, b)) and c.wild == (b == "wild")
    suit, _, tent = spec.partition("/")
    return c.suits == (suit,) and not c.wild and (not tent or c.tent == tent)


def take_cards(s: PinetopState, *specs: str) -> list[int]:
    """Take cards matching ``specs`` out of the deck (then the discard pile, then face up)."""
    out = []
    for spec in specs:
        for pile in (s.deck, s.discard):
            found = next((c for c in pile if _matches(c, spec) and c not in out), None)
            if found is not None:
                pile.remove(found)
                out.append(found)
                break
        else:
            slot = next(i for i, c in enumerate(s.face_up) if c is not None and _matches(c, spec))
            out.append(s.face_up[slot])
            s.face_up[slot] = s.deck.pop(0)
    return out


def set_hand(s: PinetopState, seat: int, *specs: str) -> list[int]:
    s.deck[:0] = s.hands[seat]
    s.hands[seat] = []
    s.hands[seat] = take_cards(s, *specs)
    return s.hands[seat]


def set_face_up(s: PinetopState, *specs: str) -> None:
    s.deck[:0] = [c for c in s.face_up if c is not None]
    s.face_up = [None] * 4
    s.face_up = take_cards(s, *specs)
    supply.note_matching(s)  # as the turn begins


def arrange(
    players: int = 2,
    options: dict | None = None,
    seed: int = 1,
    grid: dict[int, str] | None = None,
    campers: dict[int, list[int]] | None = None,
    hands: dict[int, list[str]] | None = None,
    patches: dict[int, dict] | None = None,
    active: int = 0,
) -> PinetopState:
    """A game past setup with the given cards at positions, campers, hands and patches; the
    turn of ``active`` begins."""
    s = GAME.setup(players, GAME.options(options or {}), seed)
    for pos, name in (grid or {}).items():
        wanted = map_id(name)
        if wanted in s.grid:
            other = s.grid.index(wanted)
            s.grid[other], s.grid[pos] = s.grid[pos], wanted
        else:
            s.grid[pos] = wanted
    s.campers = [[] for _ in s.grid]
    for pos, seats in (campers or {}).items():
        s.campers[pos] = list(seats)
    s.campers_left = [4 - sum(here.count(p) for here in s.campers) for p in range(players)]
    for seat, specs in (hands or {}).items():
        set_hand(s, seat, *specs)
    for seat, held in (patches or {}).items():
        s.patches[seat] = dict(held)
    s.phase = "action"
    s.turn = 1
    s.active = active
    s.log = []
    supply.note_matching(s)
    return s


def do(s: PinetopState, move: dict, seat: int | None = None) -> PinetopState:
    return play(GAME, s, s.active if seat is None else seat, move)


def legal(s: PinetopState, seat: int | None = None) -> list[dict]:
    seat = s.active if seat is None else seat
    return [m.model_dump(mode="json") for m in GAME.legal_moves(s, seat)]


def labels(s: PinetopState) -> list[str]:
    return [GAME.describe(s, s.active, m) for m in GAME.legal_moves(s, s.active)]


def kinds_in(s: PinetopState, cards: list[int]) -> list[str]:
    return sorted(f"{'+'.join(SUPPLY[c].suits)}{'+wild' if SUPPLY[c].wild else ''}" for c in cards)

"""Camp Pinetop rules: setup, whose decision it is, the legal moves and how each applies.

Setup is in setup.py. A turn: an optional Friendship token first, then one action, each a short sequence of prompts
(see moves.py). After every step the active player claims any mastery card completed (one
prompt per claim, so claims chain); when the action is over, discards down to the hand limit,
then the next player. The game ends the moment someone reaches Badger. Choices where the
rulebook is silent are listed in docs/rules/camp-pinetop.md.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.core import Outcome, Rng
from engine.pinetop import nature, supply
from engine.pinetop.board import GRID, entry_edge, neighbours, on_edge, toward
from engine.pinetop.cards import (ANY, BASE_SUPPLY, BEAVER, BLUE, COLOURS, DOUBLE_SUPPLY, ELK,
                                  GREY, MAP_CARDS, MAP_IDS_OF, MASTERIES, MASTERIES_IN_PLAY,
                                  OTTER, PATCHES, PATCHES_OF, RANKS, SUPPLY)
from engine.pinetop.mastery import claimable
from engine.pinetop.moves import (Befriend, Claim, Discard, DrawDeck, Give, Move, MoveCamper,
                                  Done, Pass, Pay, Place, Refresh, Skip, Step, Stop, Take)
from engine.pinetop.payment import TENT, key, needed, needed_by_key, signatures
from engine.pinetop.state import SEAT_NAMES, Options, PinetopState

GREEN_POWER = {  # (basic, advanced): cards drawn, face-up takes, placements
    "forager": (2, 3), "campfire": (1, 2), "buddy_system": (1, 1),
}
CELLS = 16
GREY_PATCHES = PATCHES_OF[GREY]
# The other seats in turn order after each seat, per player count.
_TURN_ORDER = {n: [[(seat + i) % n for i in range(1, n)] for seat in range(n)]
               for n in range(2, 6)}

# Moves are frozen values: every one is built once here, not at every step.
DRAW_DECK, REFRESH, STOP, SKIP, PASS, DONE = DrawDeck(), Refresh(), Stop(), Skip(), Pass(), Done()
REFRESH_KEEPING = [Refresh(keep=i) for i in range(4)]
TAKE = [Take(slot=i) for i in range(4)]
PLACE = [Place(to=p) for p in range(CELLS)]
TRAVEL = {(a, b, patch, tower): MoveCamper(start=a, to=b, patch=patch, tower=tower)
          for a in range(CELLS) for b in range(CELLS)
          for patch in (False, True) for tower in (False, True)}
STEP = {(a, b): Step(start=a, to=b) for a in range(CELLS) for b in range(CELLS)}
GIVE = {(c, p): Give(card=c, to=p) for c in range(len(SUPPLY)) for p in range(5)}
PAY = [Pay(card=c) for c in range(len(SUPPLY))]
DISCARD = [Discard(card=c) for c in range(len(SUPPLY))]
CLAIM = {(k, i): Claim(mastery=k, spot=i) for k in MASTERIES for i in range(4)}
BEFRIEND = {(o, k): Befriend(owner=o, patch=k) for o in range(5) for k in PATCHES}


def name(seat: int) -> str:
    return SEAT_NAMES[seat]


def card_name(s: PinetopState, pos: int) -> str:
    return MAP_CARDS[s.grid[pos]].name


# ---------------------------------------------------------------- queries


def to_act(s: PinetopState) -> list[int]:
    return [] if s.phase == "over" else [s.active]


def level(s: PinetopState, seat: int, patch: str) -> int:
    """0: not held, 1: basic, 2: advanced; a power borrowed this turn counts too."""
    held = s.patches[seat].get(patch)
    own = 0 if held is None else 1 + held
    b = s.borrowed
    if b is not None and seat == s.active and b.patch == patch:
        own = max(own, 1 + b.advanced)
    return own


def hand_limit(s: PinetopState, seat: int) -> int:
    return RANKS[s.rank[seat]].hand_limit + level(s, seat, "pack_mule")


def greys(s: PinetopState, seat: int) -> frozenset[str]:
    """The supplies any card stands for when ``seat`` pays (its grey patches)."""
    return frozenset(PATCHES[k].suit for k in GREY_PATCHES if level(s, seat, k))


def patch_cost(s: PinetopState, seat: int, pos: int) -> tuple[str, ...]:
    """What ``seat`` pays for a patch at ``pos``: each advanced grey patch takes one of its
    supply off, the Elk the last supply left, rain adds one card of any supply."""
    cost = list(MAP_CARDS[s.grid[pos]].cost)
    for k in GREY_PATCHES:
        suit = PATCHES[k].suit
        if suit in cost and level(s, seat, k) == 2:
            cost.remove(suit)
    if cost and nature.animal_at(s, pos, ELK):
        cost.pop()
    if nature.rainy(s, pos):
        cost.append(ANY)
    return tuple(cost)


def tent_cost(s: PinetopState, seat: int, pos: int) -> tuple[str, ...]:
    """The tent cards that place a camper at ``pos``: a matching pair (wilds count), less with
    Shelter Builder or the Beaver."""
    tent = TENT + MAP_CARDS[s.grid[pos]].colour
    shelter = level(s, seat, "shelter_builder")
    if shelter == 2 or nature.animal_at(s, pos, BEAVER):
        return (tent,)
    return (tent, ANY) if shelter else (tent, tent)


def occupants(s: PinetopState, seat: int, pos: int) -> tuple[int, ...]:
    """The other players with a camper on ``pos``, each once, in turn order after ``seat``."""
    here = s.campers[pos]
    if not here:
        return ()
    return tuple(p for p in _TURN_ORDER[s.players][seat] if p in here)


def gifts_due(s: PinetopState, seat: int, pos: int) -> tuple[tuple[int, ...], int]:
    """Who may receive a gift for joining ``pos``, and how many gifts are due."""
    owed = occupants(s, seat, pos)
    if nature.animal_at(s, pos, OTTER):  # at the first placements too
        return (), 0
    if s.phase == "setup":
        return owed, len(owed)
    neighbour = level(s, seat, "good_neighbor")
    if neighbour == 2:
        return (), 0
    return owed, min(1, len(owed)) if neighbour else len(owed)


def placeable(s: PinetopState, pos: int) -> bool:
    return not nature.bear(s, pos) and not nature.windy(s, pos)


def mine(s: PinetopState, seat: int) -> list[int]:
    """The positions holding at least one of ``seat``'s campers."""
    return [p for p, here in enumerate(s.campers) if seat in here]


def kinds(hand: list[int]) -> list[int]:
    """One card of each kind in ``hand``: cards of a kind are interchangeable."""
    seen: set = set()
    out = []
    for c in hand:
        if SUPPLY[c].kind not in seen:
            seen.add(SUPPLY[c].kind)
            out.append(c)
    return out


def without(hand: list[int], card: int) -> list[int]:
    rest = list(hand)
    rest.remove(card)
    return rest


# ---------------------------------------------------------------- legal moves


def legal_moves(s: PinetopState, seat: int) -> list[Move]:
    if seat not in to_act(s):
        return []
    return _LEGAL[s.phase](s, seat)


def is_legal(s: PinetopState, seat: int, move: Move) -> bool:
    """``move in legal_moves(s, seat)``, working out only the moves of its kind."""
    if seat not in to_act(s):
        return False
    if s.phase == "action" and not s.refreshed:
        if isinstance(move, (DrawDeck, Take)):
            return _among(move, _draws(s))
        if isinstance(move, MoveCamper):
            return move.patch and _among(move, _travels(s, seat, patch=True))
        if isinstance(move, Place):
            return _among(move, _placements(s, seat))
        if isinstance(move, Befriend):
            return s.friendship[seat] == "held" and _among(move, _friendship_uses(s, seat))
    return _among(move, _LEGAL[s.phase](s, seat))


def _among(move: Move, moves: list[Move]) -> bool:
    """``move in moves``, trying identity first: legal moves are built once (see above), and
    pydantic's ``==`` costs far more than ``is``."""
    for m in moves:
        if m is move:
            return True
    return move in moves


def _legal_setup(s: PinetopState, seat: int) -> list[Move]:
    if s.pending is not None:
        return _legal_gift(s, seat)
    return [PLACE[p] for p in range(len(s.grid)) if placeable(s, p)]


def _legal_action(s: PinetopState, seat: int) -> list[Move]:
    moves: list[Move] = [*_draws(s), *_refreshes(s)]
    if s.refreshed:  # a refresh begins the Draw Two action: a draw must follow
        return (moves or [STOP]) + extras(s, seat)
    moves += _travels(s, seat, patch=True)
    moves += _placements(s, seat)
    return (moves or [PASS]) + extras(s, seat)


def _legal_draw(s: PinetopState, seat: int) -> list[Move]:
    travels = [] if s.refreshed else _travels(s, seat, patch=False)
    return [*_draws(s), *travels, STOP, *extras(s, seat)]


def _legal_after(s: PinetopState, seat: int) -> list[Move]:
    return [*extras(s, seat), DONE]


def _refreshes(s: PinetopState) -> list[Move]:
    """At the start of the turn, three matching face-up cards may go (with four, the player
    keeps the one they choose); after a refresh, the three new ones again if they all
    match."""
    if s.refreshed:
        new = [s.face_up[i] for i in s.refresh_slots]
        return [REFRESH] if supply.all_match(new) else []
    slots = supply.matching(s)
    if len(slots) == 4:
        return [REFRESH_KEEPING[i] for i in slots]
    return [REFRESH] if slots else []


def extras(s: PinetopState, seat: int) -> list[Move]:
    """What may be done at any point of the turn besides the action: Trailblazer's free
    moves and spending the Friendship token."""
    moves: list[Move] = []
    if level(s, seat, "trailblazer") > s.steps:
        moves += [STEP[a, b] for a in mine(s, seat) for b in neighbours(s.cols, s.rows, a)
                  if not nature.bear(s, b)]
    if s.friendship[seat] == "held":
        moves += _friendship_uses(s, seat)
    return moves


def _draws(s: PinetopState) -> list[Move]:
    """The first draw of a turn, or the second: from the deck or the side already used, and
    never a face-up wild."""
    moves: list[Move] = [DRAW_DECK] if s.deck or s.discard else []
    for slot, card in enumerate(s.face_up):
        if card is None:
            continue
        if s.drawn and (SUPPLY[card].wild
                        or s.draw_side not in (None, supply.side_of(slot))):
            continue
        moves.append(TAKE[slot])
    return moves


def routes(s: PinetopState, seat: int) -> list[tuple[int, int, bool]]:
    """Every (start, to, tower) a camper of ``seat`` may travel: one space, or with the
    Observation Tower a free step toward it first."""
    out = []
    for a in mine(s, seat):
        for b in neighbours(s.cols, s.rows, a):
            if not nature.bear(s, b):
                out.append((a, b, False))
        mid = toward(s.cols, a, s.tower) if s.tower is not None else None
        if mid is not None and not nature.bear(s, mid):
            for b in neighbours(s.cols, s.rows, mid):
                if b != a and not nature.bear(s, b):
                    out.append((a, b, True))
    return out


def crossed(s: PinetopState, start: int, to: int, tower: bool) -> str:
    """The patch on the edge a camper crosses to reach ``to``."""
    before = toward(s.cols, start, s.tower) if tower else start
    return MAP_CARDS[s.grid[to]].edges[entry_edge(s.cols, before, to)]


def _travels(s: PinetopState, seat: int, patch: bool) -> list[Move]:
    hand = s.hands[seat]
    moves: list[Move] = []
    g = greys(s, seat) if patch else frozenset()
    hand_key = key(hand, False) if patch else ()
    fits: dict[int, bool] = {}  # by destination: the gifts (and the payment) can be made
    for a, b, tower in routes(s, seat):
        if patch and not can_gain(s, seat, crossed(s, a, b, tower)):
            continue
        ok = fits.get(b)
        if ok is None:
            _, gifts = gifts_due(s, seat, b)
            if patch:
                n = needed_by_key(patch_cost(s, seat, b), (), hand_key, g)
                ok = n is not None and len(hand) - n >= gifts
            else:
                ok = len(hand) >= gifts
            fits[b] = ok
        if ok:
            moves.append(TRAVEL[a, b, patch, tower])
    return moves


def can_gain(s: PinetopState, seat: int, patch: str) -> bool:
    """A patch can be gained unless it is already advanced."""
    return not s.patches[seat].get(patch, False)


def _placements(s: PinetopState, seat: int) -> list[Move]:
    if not s.campers_left[seat]:
        return []
    hand = s.hands[seat]
    hand_key = key(hand, True)
    moves: list[Move] = []
    for p in range(len(s.grid)):
        if placeable(s, p):
            _, gifts = gifts_due(s, seat, p)
            n = needed_by_key(tent_cost(s, seat, p), (), hand_key, frozenset())
            if n is not None and len(hand) - n >= gifts:
                moves.append(PLACE[p])
    return moves


def _friendship_uses(s: PinetopState, seat: int) -> list[Move]:
    """Any other player's patch, whatever the spender's own patches; each patch and level
    once (from the first player after the spender holding it)."""
    moves: list[Move] = []
    seen: set = set()
    for owner in _TURN_ORDER[s.players][seat]:
        for patch, advanced in s.patches[owner].items():
            if (patch, advanced) not in seen:
                seen.add((patch, advanced))
                moves.append(BEFRIEND[owner, patch])
    return moves


def _legal_gift(s: PinetopState, seat: int) -> list[Move]:
    """A gift must leave enough cards for the payment and the gifts still to come."""
    p = s.pending
    hand = s.hands[seat]
    g = greys(s, seat)

    def leaves_enough(card: int) -> bool:
        rest = without(hand, card)
        n = needed(p.cost, list(p.paid), rest, g) if p.cost else 0
        return n is not None and len(rest) - n >= p.gifts - 1

    return [GIVE[card, to] for card in _alike(p.cost, kinds(hand), leaves_enough)
            for to in p.owed]


def _legal_pay(s: PinetopState, seat: int) -> list[Move]:
    p = s.pending
    hand = s.hands[seat]
    g = greys(s, seat)
    return [PAY[c] for c in _alike(p.cost, kinds(hand), lambda c: needed(
        p.cost, [*p.paid, c], without(hand, c), g) is not None)]


def _alike(cost: tuple[str, ...], cards: list[int], test: Callable[[int], bool]) -> list[int]:
    """The cards that pass ``test``, asked once per signature: cards with the same one pay
    ``cost`` alike."""
    sigs = signatures(cost)
    passed: dict[int, bool] = {}
    out = []
    for card in cards:
        ok = passed.get(sigs[card])
        if ok is None:
            ok = passed[sigs[card]] = test(card)
        if ok:
            out.append(card)
    return out


def _legal_power(s: PinetopState, seat: int) -> list[Move]:
    """The green power, or first a mastery claim come due with it: the player's order."""
    return [*power_options(s, seat), SKIP, *_legal_mastery(s, seat)]


def power_options(s: PinetopState, seat: int) -> list[Move]:
    patch = s.power.patch
    if patch == "campfire":
        return [TAKE[i] for i, c in enumerate(s.face_up) if c is not None]
    if not s.campers_left[seat]:
        return []
    if s.power.advanced:
        spots = range(len(s.grid))
    else:
        spots = {b for a in mine(s, seat) for b in neighbours(s.cols, s.rows, a)}
    # A camper placed on an occupied card gives the gifts every placement gives.
    return [PLACE[p] for p in sorted(spots)
            if placeable(s, p) and len(s.hands[seat]) >= gifts_due(s, seat, p)[1]]


def _legal_mastery(s: PinetopState, seat: int) -> list[Move]:
    return [CLAIM[k, i] for k, i in claimable(s, seat)]


def _legal_discard(s: PinetopState, seat: int) -> list[Move]:
    return [DISCARD[c] for c in kinds(s.hands[seat])]


_LEGAL = {
    "setup": _legal_setup, "action": _legal_action, "draw": _legal_draw, "gift": _legal_gift,
    "pay": _legal_pay, "power": _legal_power, "mastery": _legal_mastery,
    "after": _legal_after, "discard": _legal_discard,
}


def outcome(s: PinetopState) -> Outcome | None:
    if s.winner is None:
        return None
    return Outcome(
        scores=list(s.rank),
        winners=[s.winner],
        details={
            "ranks": [RANKS[r].name for r in s.rank],
            "patches": [len(p) for p in s.patches],
            "advanced": [sum(p.values()) for p in s.patches],
            "turns": s.turn,
        },
    )

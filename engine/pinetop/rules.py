"""Camp Pinetop rules: setup, whose decision it is, the legal moves and how each applies.

Setup is in setup.py; what a player pays and gives is in costs.py. A turn: one action, each a
short sequence of prompts (see moves.py), with the Friendship token and Trailblazer's free
moves open besides it. After every step the active player claims any mastery card completed (one
prompt per claim, so claims chain); when the action is over, discards down to the hand limit,
then the next player. The game ends the moment someone reaches Badger. Choices where the
rulebook is silent are listed in docs/rules/camp-pinetop.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from engine.pinetop import nature, supply
from engine.pinetop.board import NEIGHBOURS, entry_edge, neighbours, toward, tower_step
from engine.pinetop.cards import MAP_CARDS, MASTERIES, PATCHES, SUPPLY, Kind
from engine.pinetop.costs import (
    TURN_ORDER,
    gifts_due,
    greys,
    level,
    patch_cost,
    repriced,
    tent_cost,
)
from engine.pinetop.mastery import claimable
from engine.pinetop.moves import (
    Befriend,
    Claim,
    Discard,
    DrawDeck,
    Give,
    Move,
    MoveCamper,
    Done,
    Pass,
    Pay,
    Place,
    Refresh,
    Skip,
    Step,
    Stop,
    Take,
)
from engine.pinetop.payment import needed, paying, signatures
from engine.pinetop.state import SEAT_NAMES, Borrowed, Phase, PinetopState

GREEN_POWER = {  # (basic, advanced): cards drawn, face-up takes, placements
    "forager": (2, 3),
    "campfire": (1, 2),
    "buddy_system": (1, 1),
}
CELLS = 16

# Moves are frozen values: every one is built once here, not at every step.
DRAW_DECK, REFRESH, STOP, SKIP, PASS, DONE = DrawDeck(), Refresh(), Stop(), Skip(), Pass(), Done()
REFRESH_KEEPING = [Refresh(keep=i) for i in range(4)]
TAKE = [Take(slot=i) for i in range(4)]
PLACE = [Place(to=p) for p in range(CELLS)]
TRAVEL = {
    (a, b, patch, tower): MoveCamper(start=a, to=b, patch=patch, tower=tower)
    for a in range(CELLS)
    for b in range(CELLS)
    for patch in (False, True)
    for tower in (False, True)
}
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


def placeable(s: PinetopState, pos: int) -> bool:
    return pos not in nature.blocked(s)


def mine(s: PinetopState, seat: int) -> list[int]:
    """The positions holding at least one of ``seat``'s campers."""
    return [p for p, here in enumerate(s.campers) if seat in here]


def kinds(hand: list[int]) -> list[int]:
    """One card of each kind in ``hand``: cards of a kind are interchangeable."""
    seen: set[Kind] = set()
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


# The moves last worked out, with their state (that very object) and seat: a person's move is
# checked against the list their view offered instead of being worked out again. A state is
# a value once made (every step makes a new one), so the object stands for its moves.
_last: tuple[PinetopState | None, int, list[Move]] = (None, -1, [])


def legal_moves(s: PinetopState, seat: int) -> list[Move]:
    global _last
    if seat not in to_act(s):
        return []
    moves = _LEGAL[s.phase](s, seat)
    _last = (s, seat, moves)
    return moves


def is_legal(s: PinetopState, seat: int, move: Move) -> bool:
    """``move in legal_moves(s, seat)``, working out only the moves of its kind."""
    state, known_seat, known = _last
    if state is s and known_seat == seat:
        return _among(move, known)
    if seat not in to_act(s):
        return False
    if s.phase == "action" and not s.refreshed:
        if isinstance(move, (DrawDeck, Take)):
            return _among(move, draws(s))
        if isinstance(move, MoveCamper):  # its own route only
            way = (move.start, move.to, move.tower)
            ways = [w for w in routes(s, seat) if w == way]
            return bool(ways) and _among(move, _travels(s, seat, move.patch, ways=ways))
        if isinstance(move, Place):
            return _among(move, _placements(s, seat, only=move.to))
        if isinstance(move, Befriend):
            return s.friendship[seat] == "held" and _among(move, _friendship_uses(s, seat))
    if s.phase == "pay" and isinstance(move, Pay):  # that card alone
        return move.card in kinds(s.hands[seat]) and _pays(s, seat, greys(s, seat))(move.card)
    return _among(move, _LEGAL[s.phase](s, seat))


def _among(move: Move, moves: Sequence[Move]) -> bool:
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
    moves: list[Move] = [*draws(s), *_refreshes(s)]
    if s.refreshed:  # a refresh begins the Draw Two action: a draw must follow
        return (moves or [STOP]) + extras(s, seat)
    ways = routes(s, seat)
    gifts: dict[int, int] = {}  # by destination, shared by both kinds of travel
    moves += _travels(s, seat, patch=True, ways=ways, gifts=gifts)
    moves += _travels(s, seat, patch=False, ways=ways, gifts=gifts)  # Draw & Move, move first
    moves += _placements(s, seat)
    return (moves or [PASS]) + extras(s, seat)


def _legal_draw(s: PinetopState, seat: int) -> list[Move]:
    if s.moved:  # Draw & Move's card after its move: one, and that is all
        return [*draws(s), *extras(s, seat)]
    travels = [] if s.refreshed else _travels(s, seat, patch=False)
    return [*draws(s), *travels, STOP, *extras(s, seat)]


def _legal_after(s: PinetopState, seat: int) -> list[Move]:
    return [*extras(s, seat), DONE]


def _refreshes(s: PinetopState) -> list[Move]:
    """Three face-up cards that matched at the start of the turn may go (with four, the
    player keeps the one they choose); after a refresh, the three new ones again if they all
    match."""
    if s.refreshed:
        new = [s.face_up[i] for i in s.refresh_slots]
        return [REFRESH] if supply.all_match(new) else []
    slots = supply.refreshable(s)
    if len(slots) == 4:
        return [REFRESH_KEEPING[i] for i in slots]
    return [REFRESH] if slots else []


def extras(s: PinetopState, seat: int) -> list[Move]:
    """What may be done at any point of the turn besides the action: Trailblazer's free
    moves and spending the Friendship token."""
    moves: list[Move] = []
    if level(s, seat, "trailblazer") > s.steps:
        moves += [
            STEP[a, b]
            for a in mine(s, seat)
            for b in neighbours(s.cols, s.rows, a)
            if not nature.bear(s, b)
        ]
    if s.friendship[seat] == "held":
        moves += _friendship_uses(s, seat)
    return moves


def draws(s: PinetopState) -> list[Move]:
    """The first draw of a turn, or the second: from the deck or the side already used, and
    never a face-up wild; after Draw & Move's move, a card from anywhere but a wild."""
    moves: list[Move] = [DRAW_DECK] if s.deck or s.discard else []
    for slot, card in enumerate(s.face_up):
        if card is None:
            continue
        if (s.drawn or s.moved) and SUPPLY[card].wild:
            continue
        if s.drawn and s.draw_side not in (None, supply.side_of(slot)):
            continue
        moves.append(TAKE[slot])
    return moves


def routes(s: PinetopState, seat: int) -> list[tuple[int, int, bool]]:
    """Every (start, to, tower) a camper of ``seat`` may travel: one space, or with the
    Observation Tower a free step toward it first."""
    out = []
    bear = nature.bear_at(s)
    near = NEIGHBOURS[s.cols, s.rows]
    for a in mine(s, seat):
        out += [(a, b, False) for b in near[a] if b != bear]
        mid = toward(s.cols, a, s.tower) if s.tower is not None else None
        if mid is not None and mid != bear:
            out += [(a, b, True) for b in near[mid] if b != a and b != bear]
    return out


def crossed(s: PinetopState, start: int, to: int, tower: bool) -> str:
    """The patch on the edge a camper crosses to reach ``to``."""
    before = tower_step(s.cols, start, s.tower) if tower else start
    return MAP_CARDS[s.grid[to]].edges[entry_edge(s.cols, before, to)]


def _travels(
    s: PinetopState,
    seat: int,
    patch: bool,
    ways: list[tuple[int, int, bool]] | None = None,
    gifts: dict[int, int] | None = None,
) -> list[Move]:
    """``ways``: ``routes(s, seat)``, ``gifts``: the gifts due by destination, when the
    caller has them."""
    hand = s.hands[seat]
    moves: list[Move] = []
    gifts = {} if gifts is None else gifts
    held = s.patches[seat]
    if patch:
        pay = paying(hand, False, greys(s, seat))
    fits: dict[int, bool] = {}  # by destination: the gifts (and the payment) can be made
    for a, b, tower in routes(s, seat) if ways is None else ways:
        if patch and held.get(crossed(s, a, b, tower), False):
            continue  # a patch already advanced cannot be gained
        ok = fits.get(b)
        if ok is None:
            due = gifts.get(b)
            if due is None:
                due = gifts[b] = gifts_due(s, seat, b)[1]
            if patch:
                n = pay(patch_cost(s, seat, b))
                ok = n is not None and len(hand) - n >= due
            else:
                ok = len(hand) >= due
            fits[b] = ok
        if ok:
            moves.append(TRAVEL[a, b, patch, tower])
    return moves


def _placements(s: PinetopState, seat: int, only: int | None = None) -> list[Move]:
    """``only``: that position alone, if it is on the map."""
    if not s.campers_left[seat]:
        return []
    hand = s.hands[seat]
    pay = paying(hand, True)
    moves: list[Move] = []
    blocked = nature.blocked(s)
    spots = range(len(s.grid))
    for p in spots if only is None else [only] if only in spots else []:
        if p not in blocked:
            _, gifts = gifts_due(s, seat, p)
            n = pay(tent_cost(s, seat, p))
            if n is not None and len(hand) - n >= gifts:
                moves.append(PLACE[p])
    return moves


def _friendship_uses(s: PinetopState, seat: int) -> list[Befriend]:
    """Any other player's patch, whatever the spender's own patches; each patch and level
    once (from the first player after the spender holding it)."""
    moves: list[Befriend] = []
    seen: set[tuple[str, bool]] = set()
    for owner in TURN_ORDER[s.players][seat]:
        for patch, advanced in s.patches[owner].items():
            if (patch, advanced) not in seen:
                seen.add((patch, advanced))
                moves.append(BEFRIEND[owner, patch])
    return moves


def _friendship_now(s: PinetopState, seat: int) -> list[Befriend]:
    """The token during gifts, a payment or a green power ("for a free action on your
    turn"): a power that changes the camper's gifts or cost only if the rest stays payable."""
    if s.friendship[seat] != "held":
        return []
    uses = _friendship_uses(s, seat)
    if s.pending is None:
        return uses
    hand = s.hands[seat]

    def payable(move: Befriend) -> bool:
        if PATCHES[move.patch].once:
            return True
        t = s.clone()
        t.borrowed = Borrowed(
            owner=move.owner, patch=move.patch, advanced=s.patches[move.owner][move.patch]
        )
        p = repriced(t, seat)
        n = needed(p.cost, list(p.paid), hand, greys(t, seat))
        return n is not None and len(hand) - n >= p.gifts

    return [m for m in uses if payable(m)]


def _legal_gift(s: PinetopState, seat: int) -> list[Move]:
    """A gift must leave enough cards for the payment and the gifts still to come."""
    p = s.pending
    assert p is not None  # gifts are due for a camper on its way
    hand = s.hands[seat]
    g = greys(s, seat)

    def leaves_enough(card: int) -> bool:
        rest = without(hand, card)
        n = needed(p.cost, list(p.paid), rest, g) if p.cost else 0
        return n is not None and len(rest) - n >= p.gifts - 1

    return [
        *(GIVE[card, to] for card in _alike(p.cost, kinds(hand), leaves_enough) for to in p.owed),
        *_friendship_now(s, seat),
    ]


def _legal_pay(s: PinetopState, seat: int) -> list[Move]:
    assert s.pending is not None  # the payment is for a camper on its way
    pays = _pays(s, seat, greys(s, seat))
    return [
        *(PAY[c] for c in _alike(s.pending.cost, kinds(s.hands[seat]), pays)),
        *_friendship_now(s, seat),
    ]


def _pays(s: PinetopState, seat: int, g: frozenset[str]) -> Callable[[int], bool]:
    """Whether a card of ``seat``'s hand, paid now, leaves the cost payable."""
    p = s.pending
    assert p is not None  # only asked during a payment
    hand = s.hands[seat]
    return lambda c: needed(p.cost, [*p.paid, c], without(hand, c), g) is not None


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
    return [*power_options(s, seat), SKIP, *_legal_mastery(s, seat), *_friendship_now(s, seat)]


def power_options(s: PinetopState, seat: int) -> list[Move]:
    power = s.power
    assert power is not None  # asked only while a green power is in hand
    if power.patch == "campfire":
        return [TAKE[i] for i, c in enumerate(s.face_up) if c is not None]
    if not s.campers_left[seat]:
        return []
    spots: Iterable[int]
    if power.advanced:
        spots = range(len(s.grid))
    else:
        spots = {b for a in mine(s, seat) for b in neighbours(s.cols, s.rows, a)}
    # A camper placed on an occupied card gives the gifts every placement gives.
    return [
        PLACE[p]
        for p in sorted(spots)
        if placeable(s, p) and len(s.hands[seat]) >= gifts_due(s, seat, p)[1]
    ]


def _legal_mastery(s: PinetopState, seat: int) -> list[Move]:
    return [CLAIM[k, i] for k, i in claimable(s, seat)]


def _legal_discard(s: PinetopState, seat: int) -> list[Move]:
    return [DISCARD[c] for c in kinds(s.hands[seat])]


_LEGAL: dict[Phase, Callable[[PinetopState, int], list[Move]]] = {
    "setup": _legal_setup,
    "action": _legal_action,
    "draw": _legal_draw,
    "gift": _legal_gift,
    "pay": _legal_pay,
    "power": _legal_power,
    "mastery": _legal_mastery,
    "after": _legal_after,
    "discard": _legal_discard,
}

"""Applying a move: each step changes a copy of the state, then ``_proceed`` works out what
comes next (gifts, payment, a green power, mastery claims, discards, the next player)."""

from __future__ import annotations

from collections.abc import Callable

from engine.core import IllegalMove
from engine.pinetop import nature, supply
from engine.pinetop.board import tower_step
from engine.pinetop.cards import EAGLE, PATCHES, SUPPLY, TROUT
from engine.pinetop.labels import card_label, face_up_label, reason
from engine.pinetop.mastery import claimable
from engine.pinetop.moves import (
    Befriend,
    Claim,
    Discard,
    Done,
    DrawDeck,
    Give,
    Move,
    MoveCamper,
    Pass,
    Pay,
    Place,
    Refresh,
    Skip,
    Step,
    Stop,
    Take,
)
from engine.pinetop.patches import befriend, claim, gain, power_done
from engine.pinetop.payment import needed
from engine.pinetop.costs import (
    gifts_due,
    greys,
    hand_limit,
    level,
    patch_cost,
    tent_cost,
)
from engine.pinetop.rules import (
    card_name,
    crossed,
    draws,
    extras,
    is_legal,
    name,
    power_options,
)
from engine.pinetop.state import Pending, Phase, PinetopState


def apply(s: PinetopState, seat: int, move: Move) -> PinetopState:
    if not is_legal(s, seat, move):
        raise IllegalMove(reason(s, seat, move))
    return advance(s, seat, move)


def advance(s: PinetopState, seat: int, move: Move) -> PinetopState:
    """``apply`` for a move known to be legal (one of ``legal_moves``): a search's steps, where
    checking it again would cost a fifth of the step."""
    s = s.clone()
    if isinstance(move, Befriend):  # at any point of the turn: the step in hand waits
        befriend(s, seat, move)
    else:
        _STEP[s.phase](s, seat, move)
    _proceed(s)
    return s


# ---------------------------------------------------------------- the steps


def _setup_step(s: PinetopState, seat: int, move: Move) -> None:
    if isinstance(move, Give):
        _give(s, seat, move)
    else:
        assert isinstance(move, Place)  # the first camper, or its gifts
        _arrive(s, seat, "setup", None, move.to)


def _action_step(s: PinetopState, seat: int, move: Move) -> None:
    if isinstance(move, (DrawDeck, Take, Stop, Step)):
        _draw_step(s, seat, move)
    elif isinstance(move, MoveCamper):
        _travel(s, seat, move)
    elif isinstance(move, Place):
        s.say(f"{name(seat)} places a camper on {card_name(s, move.to)}.", seat)
        _arrive(s, seat, "place", None, move.to)
    elif isinstance(move, Pass):
        s.say(f"{name(seat)} can do nothing and passes.", seat)
        s.acted = True
    else:
        assert isinstance(move, Refresh)  # the only action left
        _refresh(s, seat, move)


def _refresh(s: PinetopState, seat: int, move: Refresh) -> None:
    again = s.refreshed
    slots = s.refresh_slots if again else [x for x in supply.refreshable(s) if x != move.keep][:3]
    gone = ", ".join(face_up_label(s, x) for x in slots)
    supply.refresh(s, slots)
    s.refreshed = True
    s.say(
        f"{name(seat)} {'again ' if again else ''}discards {gone} from the face-up cards "
        "and turns up new ones.",
        seat,
    )


def _draw_step(s: PinetopState, seat: int, move: Move) -> None:
    if isinstance(move, Step):
        _step(s, seat, move)
        return
    if isinstance(move, MoveCamper):
        _travel(s, seat, move)
        return
    if isinstance(move, Stop):
        s.say(f"{name(seat)} draws no more.", seat)
        _end_draw(s, seat)
        return
    if isinstance(move, DrawDeck):
        supply.draw_to_hand(s, seat, 1)
        s.say(f"{name(seat)} draws from the supply deck.", seat)
    else:
        assert isinstance(move, Take)  # the only draw left
        card = supply.take_face_up(s, seat, move.slot)
        side = supply.side_of(move.slot)
        s.draw_side = side
        s.took_wild = SUPPLY[card].wild
        s.say(f"{name(seat)} takes {card_label(card)} from the {side}.", seat)
    s.drawn += 1
    if s.moved:
        s.acted = True  # Draw & Move, its card after its move (no Supply Runner: not Draw Two)
    elif s.drawn == 2 or s.took_wild:
        _end_draw(s, seat)


def _end_draw(s: PinetopState, seat: int) -> None:
    """The Draw Two action is over; Supply Runner draws its extra cards."""
    s.acted = True
    extra = level(s, seat, "supply_runner")
    if extra and supply.draw_to_hand(s, seat, extra):
        s.say(f"{name(seat)}'s Supply Runner draws {extra} more.", seat)


def _travel(s: PinetopState, seat: int, move: MoveCamper) -> None:
    start = move.start
    kind = "gain" if move.patch else "move"
    patch = crossed(s, start, move.to, move.tower) if move.patch else None
    # One line from the card the camper left to the one it reaches: the undo label quotes it.
    via = ""
    if move.tower:
        mid = tower_step(s.cols, start, s.tower)
        via = f" by the tower's free step to {card_name(s, mid)}, then"
    text = f"{name(seat)} moves from {card_name(s, start)}{via} to {card_name(s, move.to)}"
    s.say(text + (f" for {PATCHES[patch].name}." if patch else "."), seat)
    s.campers[start].remove(seat)
    if move.tower:
        _joins(s, seat, tower_step(s.cols, start, s.tower))
    _joins(s, seat, move.to)
    _arrive(s, seat, kind, start, move.to, patch)


def _joins(s: PinetopState, seat: int, pos: int) -> None:
    """A camper moves onto ``pos`` (any move: an action's, the tower's free step on the way,
    Trailblazer's): the first time another player's camper is there, a Friendship token."""
    if s.options.friendship and s.friendship[seat] == "none" and set(s.campers[pos]) - {seat}:
        s.friendship[seat] = "held"
        s.say(f"{name(seat)} earns a Friendship token.", seat)


def _step(s: PinetopState, seat: int, move: Step) -> None:
    """Trailblazer's free move, at any point of the turn but a camper's gifts or payment."""
    s.steps += 1
    s.campers[move.start].remove(seat)
    s.say(
        f"Trailblazer: {name(seat)} moves from {card_name(s, move.start)} to "
        f"{card_name(s, move.to)} for free.",
        seat,
    )
    _joins(s, seat, move.to)
    s.campers[move.to].append(seat)


def _after_step(s: PinetopState, seat: int, move: Move) -> None:
    if isinstance(move, Done):
        # Its own line: the latest decision shown is the player's, not the next turn's.
        s.say(f"{name(seat)} ends the turn.", seat)
        s.ended = True
        _end_of_turn(s, seat)
    else:
        assert isinstance(move, Step)  # all else after the action is Befriend, done first
        _step(s, seat, move)


def _arrive(
    s: PinetopState, seat: int, kind: str, start: int | None, to: int, patch: str | None = None
) -> None:
    """The camper stands on ``to`` now; the gifts and payment follow as prompts."""
    owed, gifts = gifts_due(s, seat, to)
    if kind == "gain":
        cost = patch_cost(s, seat, to)
    elif kind == "place":
        cost = tent_cost(s, seat, to)
        s.campers_left[seat] -= 1
    else:
        cost = ()
        if kind in ("setup", "power"):
            s.campers_left[seat] -= 1
        if kind == "setup":
            s.say(f"{name(seat)} places a camper on {card_name(s, to)}.", seat)
    s.campers[to].append(seat)
    s.pending = Pending(
        kind=kind,
        start=start,
        to=to,
        patch=patch,
        owed=owed if gifts else (),
        gifts=gifts,
        cost=cost,
    )


def _give(s: PinetopState, seat: int, move: Move) -> None:
    p = s.pending
    assert isinstance(move, Give) and p is not None  # the gifts of a camper on its way
    s.hands[seat].remove(move.card)
    s.hands[move.to].append(move.card)
    s.gifted.append(move.to)
    s.say(f"{name(seat)} gives a supply card to {name(move.to)}.", seat)
    gifts = p.gifts - 1
    owed = tuple(x for x in p.owed if x != move.to) if gifts else ()
    s.pending = p.model_copy(update={"owed": owed, "gifts": gifts, "given": p.given + 1})


def _pay_step(s: PinetopState, seat: int, move: Move) -> None:
    """One card put down, named: taking the step back says which card it takes back."""
    assert isinstance(move, Pay) and s.pending is not None  # a camper on its way is paid for
    s.hands[seat].remove(move.card)
    s.say(f"{name(seat)} pays {card_label(move.card)}.", seat)
    s.pending = s.pending.model_copy(update={"paid": (*s.pending.paid, move.card)})


def _finish(s: PinetopState, seat: int) -> None:
    """Gifts given and cost paid: discard the payment, gain the patch, end the action."""
    p = s.pending
    assert p is not None  # the camper on its way has arrived
    s.pending = None
    s.discard += p.paid
    if p.kind in ("setup", "power"):
        return
    if p.kind == "move" and not s.drawn:
        s.moved = True  # Draw & Move, the move first: its card comes next
    else:
        s.acted = True
    if p.kind in ("move", "gain") and nature.animal_at(s, p.to, EAGLE):
        if supply.draw_to_hand(s, seat, 1):
            s.say(f"The Eagle on {card_name(s, p.to)}: {name(seat)} draws a card.", seat)
    if p.kind == "gain":
        if nature.sunny(s, p.to) and supply.draw_to_hand(s, seat, 1):
            s.say(f"Sunshine on {card_name(s, p.to)}: {name(seat)} draws a card.", seat)
        assert p.patch is not None  # a camper that gains a patch names it
        gain(s, seat, p.patch)


def _power_step(s: PinetopState, seat: int, move: Move) -> None:
    power = s.power
    assert power is not None  # the power phase has a green power in hand
    pname = PATCHES[power.patch].name
    if isinstance(move, Claim):
        claim(s, seat, move)
        return
    if isinstance(move, Skip):
        power_done(s)
        s.say(f"{name(seat)} lets the rest of {pname} go.", seat)
        return
    if power.left > 1:
        s.power = power.model_copy(update={"left": power.left - 1})
    else:
        power_done(s)
    if isinstance(move, Take):
        card = supply.take_face_up(s, seat, move.slot)
        s.say(f"{pname}: {name(seat)} takes {card_label(card)}.", seat)
    else:
        assert isinstance(move, Place)  # Buddy System's placement
        s.say(f"{pname}: {name(seat)} places a camper on {card_name(s, move.to)}.", seat)
        _arrive(s, seat, "power", None, move.to)


def _discard_step(s: PinetopState, seat: int, move: Move) -> None:
    assert isinstance(move, Discard)  # the discard phase's only move
    s.hands[seat].remove(move.card)
    s.discard.append(move.card)
    s.say(f"{name(seat)} discards {card_label(move.card)}.", seat)


_STEP: dict[Phase, Callable[[PinetopState, int, Move], None]] = {
    "setup": _setup_step,
    "action": _action_step,
    "draw": _draw_step,
    "gift": _give,
    "pay": _pay_step,
    "power": _power_step,
    "mastery": claim,
    "after": _after_step,
    "discard": _discard_step,
}


# ---------------------------------------------------------------- what comes next


def _proceed(s: PinetopState) -> None:
    while s.winner is None:
        seat = s.active
        p = s.pending
        if p is not None:
            if p.gifts:
                s.phase = "setup" if s.turn == 0 else "gift"
                return
            if p.cost and needed(p.cost, list(p.paid), [], greys(s, seat)) != 0:
                s.phase = "pay"
                return
            _finish(s, seat)
            continue
        if s.power is not None:
            if power_options(s, seat):
                s.phase = "power"
                return
            power_done(s)
            continue
        if s.turn == 0:
            _next_setup(s)
            if s.turn == 0:
                return
            continue
        if claimable(s, seat):
            s.phase = "mastery"
            return
        if not s.acted:
            if s.moved and not draws(s):
                s.acted = True  # no card left anywhere to draw
                continue
            s.phase = "draw" if s.drawn or s.moved else "action"
            return
        if not s.ended:
            if extras(s, seat):
                s.phase = "after"
                return
            s.ended = True
            _end_of_turn(s, seat)
        if len(s.hands[seat]) > hand_limit(s, seat):
            s.phase = "discard"
            return
        _next_turn(s)  # a mastery card completed since the player's last turn is claimed now
    s.phase = "over"


def _end_of_turn(s: PinetopState, seat: int) -> None:
    n = s.nature
    if n is not None and TROUT in n.animals and seat in s.campers[n.animals[TROUT]]:
        if supply.draw_to_hand(s, seat, 1):
            s.say(f"{name(seat)} fishes by the Trout and draws a card.", seat)


def _next_setup(s: PinetopState) -> None:
    """Each player places a camper in turn order from the first player; then the first
    player's turn begins."""
    following = (s.active + 1) % s.players
    if following != s.first:
        s.active = following
        s.phase = "setup"
        s.gifted = []
        s.say(f"{name(s.active)} places a camper.")
        return
    _next_turn(s)


def _next_turn(s: PinetopState) -> None:
    s.active = (s.active + 1) % s.players
    s.turn += 1
    s.phase = "action"
    s.drawn = 0
    s.draw_side = None
    s.took_wild = s.refreshed = s.acted = s.ended = s.nature_shifted = s.moved = False
    s.steps = 0
    s.refresh_slots = []
    s.gifted = []
    s.borrowed = None
    supply.note_matching(s)
    s.say(f"Turn {s.turn}: {name(s.active)}.")

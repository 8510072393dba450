"""Applying a move: each step changes a copy of the state, then ``_proceed`` works out what
comes next (gifts, payment, a green power, mastery claims, discards, the next player)."""

from __future__ import annotations

from engine.core import IllegalMove
from engine.pinetop import nature, supply
from engine.pinetop.board import toward
from engine.pinetop.cards import (BADGER, COLOURS, EAGLE, GREEN, MASTERIES, PATCHES, RANKS,
                                  SUPPLY, TROUT)
from engine.pinetop.labels import card_label, reason
from engine.pinetop.mastery import claimable
from engine.pinetop.moves import (Befriend, Claim, Discard, Done, DrawDeck, Give, Move,
                                  MoveCamper, Pass, Pay, Place, Refresh, Skip, Step, Stop, Take)
from engine.pinetop.payment import needed
from engine.pinetop.rules import (GREEN_POWER, card_name, crossed, extras, gifts_due, greys,
                                  hand_limit, is_legal, level, name, patch_cost, power_options,
                                  tent_cost)
from engine.pinetop.state import Borrowed, Pending, PinetopState, Power


def apply(s: PinetopState, seat: int, move: Move) -> PinetopState:
    if not is_legal(s, seat, move):
        raise IllegalMove(reason(s, seat, move))
    return advance(s, seat, move)


def advance(s: PinetopState, seat: int, move: Move) -> PinetopState:
    """``apply`` for a move known to be legal (one of ``legal_moves``): a search's steps, where
    checking it again would cost a fifth of the step."""
    s = s.clone()
    _STEP[s.phase](s, seat, move)
    _proceed(s)
    return s


# ---------------------------------------------------------------- the steps


def _setup_step(s: PinetopState, seat: int, move: Move) -> None:
    if isinstance(move, Give):
        _give(s, seat, move)
    else:
        _arrive(s, seat, "setup", None, move.to)


def _action_step(s: PinetopState, seat: int, move: Move) -> None:
    if isinstance(move, (DrawDeck, Take, Stop, Step, Befriend)):
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
        _refresh(s, seat, move)


def _refresh(s: PinetopState, seat: int, move: Refresh) -> None:
    again = s.refreshed
    slots = (s.refresh_slots if again
             else [x for x in supply.matching(s) if x != move.keep][:3])
    gone = ", ".join(card_label(s.face_up[x]) for x in slots)
    supply.refresh(s, slots)
    s.refreshed = True
    s.say(f"{name(seat)} {'again ' if again else ''}discards {gone} from the face-up cards "
          "and turns up new ones.", seat)


def _draw_step(s: PinetopState, seat: int, move: Move) -> None:
    if isinstance(move, (Step, Befriend)):
        _extra(s, seat, move)
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
        card = supply.take_face_up(s, seat, move.slot)
        side = supply.side_of(move.slot)
        s.draw_side = side
        s.took_wild = SUPPLY[card].wild
        s.say(f"{name(seat)} takes {card_label(card)} from the {side}.", seat)
    s.drawn += 1
    if s.drawn == 2 or s.took_wild:
        _end_draw(s, seat)


def _end_draw(s: PinetopState, seat: int) -> None:
    """The Draw Two action is over; Supply Runner draws its extra cards."""
    s.acted = True
    extra = level(s, seat, "supply_runner")
    if extra and supply.draw_to_hand(s, seat, extra):
        s.say(f"{name(seat)}'s Supply Runner draws {extra} more.", seat)


def _travel(s: PinetopState, seat: int, move: MoveCamper) -> None:
    start = move.start
    if move.tower:
        mid = toward(s.cols, start, s.tower)
        s.say(f"{name(seat)} takes the free step toward the tower to {card_name(s, mid)}.", seat)
    kind = "gain" if move.patch else "move"
    patch = crossed(s, start, move.to, move.tower) if move.patch else None
    text = f"{name(seat)} moves from {card_name(s, start)} to {card_name(s, move.to)}"
    s.say(text + (f" for {PATCHES[patch].name}." if patch else "."), seat)
    s.campers[start].remove(seat)
    if move.tower:
        _joins(s, seat, toward(s.cols, start, s.tower))
    _joins(s, seat, move.to)
    _arrive(s, seat, kind, start, move.to, patch)


def _joins(s: PinetopState, seat: int, pos: int) -> None:
    """A camper moves onto ``pos`` (any move: an action's, the tower's free step on the way,
    Trailblazer's): the first time another player's camper is there, a Friendship token."""
    if s.options.friendship and s.friendship[seat] == "none" and set(s.campers[pos]) - {seat}:
        s.friendship[seat] = "held"
        s.say(f"{name(seat)} earns a Friendship token.", seat)


def _extra(s: PinetopState, seat: int, move: Step | Befriend) -> None:
    """Trailblazer's free move or the Friendship token, at any point of the turn."""
    if isinstance(move, Befriend):
        _befriend(s, seat, move)
        return
    s.steps += 1
    s.campers[move.start].remove(seat)
    s.say(f"Trailblazer: {name(seat)} moves from {card_name(s, move.start)} to "
          f"{card_name(s, move.to)} for free.", seat)
    _joins(s, seat, move.to)
    s.campers[move.to].append(seat)


def _after_step(s: PinetopState, seat: int, move: Move) -> None:
    if isinstance(move, Done):
        s.ended = True
        _end_of_turn(s, seat)
    else:
        _extra(s, seat, move)


def _arrive(s: PinetopState, seat: int, kind: str, start: int | None, to: int,
            patch: str | None = None) -> None:
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
    s.pending = Pending(kind=kind, start=start, to=to, patch=patch, owed=owed if gifts else (),
                        gifts=gifts, cost=cost)


def _give(s: PinetopState, seat: int, move: Give) -> None:
    p = s.pending
    s.hands[seat].remove(move.card)
    s.hands[move.to].append(move.card)
    s.say(f"{name(seat)} gives a supply card to {name(move.to)}.", seat)
    gifts = p.gifts - 1
    owed = tuple(x for x in p.owed if x != move.to) if gifts else ()
    s.pending = p.model_copy(update={"owed": owed, "gifts": gifts})


def _pay_step(s: PinetopState, seat: int, move: Pay) -> None:
    s.hands[seat].remove(move.card)
    s.pending = s.pending.model_copy(update={"paid": (*s.pending.paid, move.card)})


def _finish(s: PinetopState, seat: int) -> None:
    """Gifts given and cost paid: discard the payment, gain the patch, end the action."""
    p = s.pending
    s.pending = None
    if p.paid:
        s.discard += p.paid
        s.say(f"{name(seat)} pays " + ", ".join(card_label(c) for c in p.paid) + ".", seat)
    if p.kind in ("setup", "power"):
        return
    s.acted = True
    if p.kind in ("move", "gain") and nature.animal_at(s, p.to, EAGLE):
        if supply.draw_to_hand(s, seat, 1):
            s.say(f"The Eagle on {card_name(s, p.to)}: {name(seat)} draws a card.", seat)
    if p.kind == "gain":
        if nature.sunny(s, p.to) and supply.draw_to_hand(s, seat, 1):
            s.say(f"Sunshine on {card_name(s, p.to)}: {name(seat)} draws a card.", seat)
        gain(s, seat, p.patch)


def gain(s: PinetopState, seat: int, patch: str) -> None:
    """``seat`` gains ``patch``, from a map card or a mastery card alike: new (basic), or a
    second time and turned advanced. A green patch's power follows; then the rank is
    checked."""
    held = s.patches[seat].get(patch)
    advanced = held is not None
    s.patches[seat][patch] = advanced
    pname = PATCHES[patch].name
    if held is None:
        s.say(f"{name(seat)} gains {pname}.", seat)
    else:
        s.say(f"{name(seat)}'s {pname} turns advanced.", seat)
    if PATCHES[patch].colour == GREEN:
        _start_power(s, seat, patch, advanced)
    _check_rank(s, seat)


def _start_power(s: PinetopState, seat: int, patch: str, advanced: bool) -> None:
    count = GREEN_POWER[patch][advanced]
    if patch == "forager":
        got = supply.draw_to_hand(s, seat, count)
        s.say(f"{name(seat)}'s Forager draws {got} cards.", seat)
    else:
        if s.power is not None:  # a mastery claim made before the power in hand was used
            s.waiting = [s.power, *s.waiting]
        s.power = Power(patch=patch, advanced=advanced, left=count)


def _power_done(s: PinetopState) -> None:
    """The power in hand is used up or let go: the one waiting, if any, is next."""
    s.power = s.waiting[0] if s.waiting else None
    s.waiting = s.waiting[1:]


def meets(s: PinetopState, seat: int, rank: int) -> bool:
    r = RANKS[rank]
    held = s.patches[seat]
    if sum(held.values()) < r.advanced:
        return False
    counts = {c: sum(1 for k in held if PATCHES[k].colour == c) for c in COLOURS}
    return any(all(counts[c] >= n for c, n in col.items()) for col in r.columns)


def _check_rank(s: PinetopState, seat: int) -> None:
    while s.rank[seat] < BADGER and meets(s, seat, s.rank[seat] + 1):
        s.rank[seat] += 1
        s.say(f"{name(seat)} rises to {RANKS[s.rank[seat]].name}.", seat)
        if s.rank[seat] == BADGER:
            s.winner = seat
            s.phase = "over"
            s.say(f"{name(seat)} reaches Badger and wins!", seat)


def _befriend(s: PinetopState, seat: int, move: Befriend) -> None:
    advanced = s.patches[move.owner][move.patch]
    s.friendship[seat] = "used"
    s.say(f"{name(seat)} spends the Friendship token on {name(move.owner)}'s "
          f"{PATCHES[move.patch].name}.", seat)
    if PATCHES[move.patch].colour == GREEN:
        _start_power(s, seat, move.patch, advanced)
    else:
        s.borrowed = Borrowed(owner=move.owner, patch=move.patch, advanced=advanced)


def _power_step(s: PinetopState, seat: int, move: Move) -> None:
    power = s.power
    pname = PATCHES[power.patch].name
    if isinstance(move, Claim):
        _mastery_step(s, seat, move)
        return
    if isinstance(move, Skip):
        _power_done(s)
        s.say(f"{name(seat)} lets the rest of {pname} go.", seat)
        return
    if power.left > 1:
        s.power = power.model_copy(update={"left": power.left - 1})
    else:
        _power_done(s)
    if isinstance(move, Take):
        card = supply.take_face_up(s, seat, move.slot)
        s.say(f"{pname}: {name(seat)} takes {card_label(card)}.", seat)
    else:
        s.say(f"{pname}: {name(seat)} places a camper on {card_name(s, move.to)}.", seat)
        _arrive(s, seat, "power", None, move.to)


def _mastery_step(s: PinetopState, seat: int, move: Claim) -> None:
    i = s.masteries.index(move.mastery)
    s.claims[i][move.spot] = seat
    patch = MASTERIES[move.mastery].patches[move.spot]
    s.say(f"{name(seat)} completes {MASTERIES[move.mastery].name} and claims "
          f"{PATCHES[patch].name}.", seat)
    gain(s, seat, patch)


def _discard_step(s: PinetopState, seat: int, move: Discard) -> None:
    s.hands[seat].remove(move.card)
    s.discard.append(move.card)
    s.say(f"{name(seat)} discards {card_label(move.card)}.", seat)


_STEP = {
    "setup": _setup_step, "action": _action_step, "draw": _draw_step, "gift": _give,
    "pay": _pay_step, "power": _power_step, "mastery": _mastery_step,
    "after": _after_step, "discard": _discard_step,
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
            _power_done(s)
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
            s.phase = "draw" if s.drawn else "action"
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
        s.say(f"{name(s.active)} places a camper.")
        return
    _next_turn(s)


def _next_turn(s: PinetopState) -> None:
    s.active = (s.active + 1) % s.players
    s.turn += 1
    s.phase = "action"
    s.drawn = 0
    s.draw_side = None
    s.took_wild = s.refreshed = s.acted = s.ended = s.nature_shifted = False
    s.steps = 0
    s.refresh_slots = []
    s.borrowed = None
    s.say(f"Turn {s.turn}: {name(s.active)}.")

"""Patches and what they bring: gaining one (new, or a second time and turned advanced), the
one-time green power it starts, the rank it may raise; a mastery claim, which gains its patch;
and a Friendship token spent on another player's patch."""

from __future__ import annotations

from engine.pinetop import supply
from engine.pinetop.cards import BADGER, COLOURS, MASTERIES, PATCHES, RANKS
from engine.pinetop.costs import repriced
from engine.pinetop.moves import Befriend, Claim, Move
from engine.pinetop.rules import GREEN_POWER, name
from engine.pinetop.state import Borrowed, PinetopState, Power
from engine.words import plural


def gain(s: PinetopState, seat: int, patch: str) -> None:
    """``seat`` gains ``patch``, from a map card or a mastery card alike: new (basic), or a
    second time and turned advanced. A one-time (green) power follows; then the rank is
    checked."""
    held = s.patches[seat].get(patch)
    advanced = held is not None
    s.patches[seat][patch] = advanced
    pname = PATCHES[patch].name
    if held is None:
        s.say(f"{name(seat)} gains {pname}.", seat)
    else:
        s.say(f"{name(seat)}'s {pname} turns advanced.", seat)
    if PATCHES[patch].once:
        _start_power(s, seat, patch, advanced)
    _check_rank(s, seat)


def _start_power(s: PinetopState, seat: int, patch: str, advanced: bool) -> None:
    count = GREEN_POWER[patch][advanced]
    if patch == "forager":
        got = supply.draw_to_hand(s, seat, count)
        s.say(f"{name(seat)}'s Forager draws {plural(got, 'card')}.", seat)
    else:
        if s.power is not None:  # a mastery claim made before the power in hand was used
            s.waiting = [s.power, *s.waiting]
        s.power = Power(patch=patch, advanced=advanced, left=count)


def power_done(s: PinetopState) -> None:
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


def befriend(s: PinetopState, seat: int, move: Befriend) -> None:
    advanced = s.patches[move.owner][move.patch]
    s.friendship[seat] = "used"
    s.say(
        f"{name(seat)} spends the Friendship token on {name(move.owner)}'s "
        f"{PATCHES[move.patch].name}.",
        seat,
    )
    if PATCHES[move.patch].once:
        _start_power(s, seat, move.patch, advanced)
    else:
        s.borrowed = Borrowed(owner=move.owner, patch=move.patch, advanced=advanced)
        if s.pending is not None:  # spent during the gifts or the payment: they count it
            s.pending = repriced(s, seat)


def claim(s: PinetopState, seat: int, move: Move) -> None:
    """The mastery step: a disc on the spot claimed, and its patch gained."""
    assert isinstance(move, Claim)  # a mastery card's only move
    i = s.masteries.index(move.mastery)
    s.claims[i][move.spot] = seat
    patch = MASTERIES[move.mastery].patches[move.spot]
    s.say(
        f"{name(seat)} completes {MASTERIES[move.mastery].name} and claims {PATCHES[patch].name}.",
        seat,
    )
    gain(s, seat, patch)

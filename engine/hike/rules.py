"""The rules of Let's Take a Hike: whose decision it is, legal moves, applying them. Setup,
hazards, hikes, the end and the moves' words each have a module of their own.

Modelling choices (also in docs/rules/lets-take-a-hike.md):
* The top of the draw pile is the END of ``draw_pile``.
* Rearranging a backpack is always allowed, so a drawn item offers "pack it in space S" for
  every space S where everything still fits (the others move as little as needed), or, when
  the whole set cannot fit, "discard card C" for every card C whose removal leaves a set that
  fits. Cards of the same item are interchangeable, so choices are offered once per item.
* A discard nobody can choose differently (one kind of card left to pick, or every card must
  go) is made by the engine at once, so the players are only asked real questions.
* During a hike every hiker who owes discards acts at once (``to_act`` lists them all, from
  the lead hiker clockwise); join and continue/drop-out decisions are asked one at a time,
  from the lead hiker clockwise, because later players see the earlier answers.
"""

from __future__ import annotations

from typing import Any

from engine.core import IllegalMove, unchecked
from engine.hike import backpack as bpk
from engine.hike.cards import CARDS, SPACE_TITLES
from engine.hike.deck import PLAYERS, clockwise, draw_card, one_per_item, the_card
from engine.hike.ending import end_turn
from engine.hike.hazards import debt_choices, hazard, pay_debt, settle
from engine.hike.hikes import after_resolving, announce_hike, drop_out, end_hike, hike_draw
from engine.hike.moves import (
    CONTINUE,
    DISCARD,
    DRAW,
    DROP_OUT,
    JOIN,
    PACK,
    SCORE,
    STAY,
    TAKE_HIKE,
    Continue,
    Discard,
    Draw,
    DropOut,
    Join,
    Move,
    Pack,
    StayBehind,
    TakeHike,
)
from engine.hike.setup import discard_dealt, pack_dealt, setup_discards, start_play
from engine.hike.state import Hike, HikeState


_ACTING: list[Any] = [None, []]
"""The last state asked about and its answer (the state kept alive, so its id is not
reused): a step asks for the same state several times (the loop, its legal moves, its
view, applying a move), and states are not changed once made."""


def to_act(s: HikeState) -> list[int]:
    return list(_acting(s))


def _acting(s: HikeState) -> list[int]:
    """``to_act``'s answer itself, for the rules, which only read it."""
    if _ACTING[0] is s:
        kept: list[int] = _ACTING[1]
        return kept
    acting = _to_act(s)
    _ACTING[0], _ACTING[1] = s, acting
    return acting


def _to_act(s: HikeState) -> list[int]:
    if s.game_over:
        return []
    if s.phase == "setup":
        return clockwise(s.turn, [i for i, hand in enumerate(s.dealt) if hand], s.players)
    if s.phase in ("turn", "pack"):
        return [s.turn]
    if s.phase in ("join", "decide"):
        assert s.hike is not None  # seats join, or go on, only on a hike
        return [s.hike.to_ask[0]]
    start = s.hike.lead if s.hike else s.turn
    return clockwise(start, [i for i, d in enumerate(s.debts) if d is not None], s.players)


def can_draw(s: HikeState) -> bool:
    return bool(s.draw_pile or s.discard_pile)


def legal_moves(s: HikeState, seat: int) -> list[Move]:
    if seat not in _acting(s):
        return []
    if s.phase == "setup":
        return [DISCARD[c] for c in one_per_item(setup_discards(s.dealt[seat]))]
    if s.phase == "turn":
        if not bpk.is_empty(s.backpacks[seat]):
            return [DRAW, TAKE_HIKE]
        return [DRAW]
    if s.phase == "pack":
        bp, pending = s.backpacks[seat], s.pending
        assert pending is not None  # the item drawn, to pack
        spaces = bpk.pack_spaces(bp, pending)
        if spaces:
            return [PACK[sp] for sp in spaces]
        options = bpk.fit_discards(bp, pending)
        options.sort(key=lambda c: c != pending)
        return [DISCARD[c] for c in one_per_item(options)]
    if s.phase == "join":
        return [JOIN, STAY]
    if s.phase == "resolve":
        return [DISCARD[c] for c in debt_choices(s, seat)]
    # decide
    hike = s.hike
    assert hike is not None  # hikers decide on a hike
    moves: list[Move] = [CONTINUE] if can_draw(s) else []
    items = [c for c in hike.pile if CARDS[c].is_item]
    if len(hike.hikers) > 1:
        moves.extend(SCORE[c] for c in one_per_item(items))
    moves.append(DROP_OUT)
    return moves


def _copy(s: HikeState) -> HikeState:
    """A copy safe to mutate. It shares what moves replace rather than change: the log's
    entries, each backpack, scoring pile and dealt hand, and the RNG (see ``shuffle``).
    Built field by field (``copy_model``'s result, at about half its cost: a move makes one)."""
    fields = s.__dict__.copy()
    for name in _STATE_LISTS:
        fields[name] = fields[name].copy()
    hike = fields["hike"]
    if hike is not None:
        fields["hike"] = _copy_hike(hike)
    return unchecked(HikeState, fields, s.__pydantic_fields_set__ | _STATE_COPIED)


def _copy_hike(h: Hike) -> Hike:
    fields = h.__dict__.copy()
    for name in _HIKE_LISTS:
        fields[name] = fields[name].copy()
    return unchecked(Hike, fields, h.__pydantic_fields_set__ | _HIKE_LISTS)


_STATE_LISTS = ("log", "draw_pile", "discard_pile", "backpacks", "scoring", "debts", "dealt")


_STATE_COPIED = frozenset((*_STATE_LISTS, "rng", "hike"))


_HIKE_LISTS = frozenset(("joined", "hikers", "pile", "to_ask"))


def apply(state: HikeState, seat: int, move: Move) -> HikeState:
    if state.game_over:
        raise IllegalMove("The game is over.")
    if seat not in _acting(state):
        raise IllegalMove("It is not your turn.")
    s = _copy(state)
    phase = s.phase
    if phase == "setup":
        if not isinstance(move, Discard):
            raise IllegalMove("Your dealt items do not all fit: choose one to discard.")
        if move.card not in setup_discards(s.dealt[seat]):
            raise IllegalMove("That card is not one you may discard to make your items fit.")
        discard_dealt(s, seat, move.card)
        pack_dealt(s, seat)
        if not any(s.dealt):
            start_play(s)
    elif phase == "turn":
        if isinstance(move, Draw):
            _draw_turn(s)
        elif isinstance(move, TakeHike):
            announce_hike(s, seat)
        else:
            raise IllegalMove("It is your turn: draw a card or take a hike.")
    elif phase == "pack":
        _pack(s, seat, move)
    elif phase == "join":
        assert s.hike is not None  # seats are asked to join a hike under way
        if isinstance(move, Join):
            s.hike.joined.append(seat)
            s.hike.hikers.append(seat)
            s.say(f"{PLAYERS[seat]} joins the hike.", seat)
        elif isinstance(move, StayBehind):
            s.say(f"{PLAYERS[seat]} stays at camp.", seat)
        else:
            raise IllegalMove("Decide whether to join the hike.")
        s.hike.to_ask.pop(0)
        if not s.hike.to_ask:
            hike_draw(s)
    elif phase == "resolve":
        if not isinstance(move, Discard):
            raise IllegalMove("You must discard first.")
        pay_debt(s, seat, move.card)
        settle(s)
        if not any(s.debts):
            after_resolving(s)
    elif phase == "decide":
        assert s.hike is not None  # hikers decide on a hike
        if isinstance(move, Continue):
            if not can_draw(s):
                raise IllegalMove("There are no cards left to draw: you must drop out.")
            s.say(f"{PLAYERS[seat]} continues.", seat)
        elif isinstance(move, DropOut):
            drop_out(s, seat, move.score)
        else:
            raise IllegalMove("Decide whether to continue the hike or drop out.")
        s.hike.to_ask.pop(0)
        if not s.hike.to_ask:
            if s.hike.hikers:
                hike_draw(s)
            else:
                end_hike(s)
    return s


def _draw_turn(s: HikeState) -> None:
    seat = s.turn
    c = CARDS[draw_card(s)]
    if c.is_item:
        s.pending = c.id
        s.phase = "pack"
        return
    s.say(f"{PLAYERS[seat]} draws {the_card(c)}!", seat)
    hazard(s, c, [seat])
    s.discard_pile.append(c.id)
    settle(s)
    if any(s.debts):
        s.phase = "resolve"
    else:
        end_turn(s)


def _pack(s: HikeState, seat: int, move: Move) -> None:
    assert s.pending is not None  # the item drawn, to pack
    c = CARDS[s.pending]
    bp = s.backpacks[seat]
    if isinstance(move, Pack):
        if not c.fits(move.space):
            where = " or ".join(SPACE_TITLES[sp] for sp in c.spaces)
            raise IllegalMove(f"The {c.title} fits only in the {where} of the backpack.")
        packed = bpk.pack_at(bp, c.id, move.space)
        if packed is None:
            if bpk.pack_spaces(bp, c.id):
                raise IllegalMove(
                    f"Everything else cannot fit with the {c.title} in the "
                    f"{SPACE_TITLES[move.space]}."
                )
            raise IllegalMove(f"The {c.title} does not fit with everything else: discard a card.")
        s.backpacks[seat] = packed
        s.say(f"{PLAYERS[seat]} draws and packs {the_card(c)}.", seat)
    elif isinstance(move, Discard):
        if bpk.pack_spaces(bp, c.id):
            raise IllegalMove(f"The {c.title} fits: pack it.")
        if move.card not in bpk.fit_discards(bp, c.id):
            raise IllegalMove("Discarding that card would not make everything fit.")
        gone = CARDS[move.card]
        s.discard_pile.append(gone.id)
        if gone.id == c.id:
            s.say(f"{PLAYERS[seat]} draws {the_card(c)}, has no room for it and discards it.", seat)
        else:
            made_room = bpk.add(bpk.without(bp, gone.id), c.id)
            assert made_room is not None  # ``fit_discards`` offered it
            s.backpacks[seat] = made_room
            s.say(
                f"{PLAYERS[seat]} draws {the_card(c)} and discards {the_card(gone)} to make room.",
                seat,
            )
    else:
        raise IllegalMove(f"Pack the {c.title} first.")
    s.pending = None
    end_turn(s)

"""The rules of Let's Take a Hike: setup, whose decision it is, legal moves, applying them.

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

from pydantic import BaseModel, ConfigDict

from engine.core import IllegalMove, Outcome, Rng, copy_model, keep, move_json, unchecked
from engine.hike import backpack as bpk
from engine.hike.cards import (
    BEAR,
    BEAR_SPRAY,
    BLISTER,
    CARDS,
    DECK_SIZE,
    GRANOLA_BAR,
    RACCOON,
    SKUNK,
    SOCKS,
    SPACE_TITLES,
    SPACES,
    Card,
)
from engine.hike.moves import (
    Continue,
    Discard,
    Draw,
    DropOut,
    Join,
    Pack,
    StayBehind,
    TakeHike,
)
from engine.hike.state import Debt, Hike, HikeState, TieBreak

HAND_SIZE = 5
# Moves are immutable, so the ones without a card are made once.
DRAW, TAKE_HIKE, JOIN, STAY, CONTINUE, DROP_OUT = (
    Draw(),
    TakeHike(),
    Join(),
    StayBehind(),
    Continue(),
    DropOut(),
)
PACK = {sp: Pack(space=sp) for sp in SPACES}
DISCARD = tuple(Discard(card=c) for c in range(DECK_SIZE))
SCORE = tuple(DropOut(score=c) for c in range(DECK_SIZE))
# Debts are replaced, never changed (see ``_discard_from``), so the ones a hazard or a hike
# card sets are made once too.
RACCOON_DEBT = Debt(rule="any", count=1, reason="Raccoon")
SKUNK_DEBTS = {n: Debt(rule="any", count=n, reason="Skunk") for n in (1, 2)}
BLISTER_DEBT = Debt(rule="highest", count=1, reason="Blister")
MILES_DEBTS = tuple(
    Debt(rule="miles", miles=c.miles, reason=c.title) if c.is_item else None for c in CARDS
)


class Options(BaseModel):
    """Let's Take a Hike has no table options."""

    model_config = ConfigDict(extra="forbid")


PLAYERS = tuple(f"Player {seat + 1}" for seat in range(5))
"""Each seat's name in the log (five seats at most), made once: nearly every line names one."""


def _miles(cards: list[int]) -> int:
    return sum(CARDS[c].miles for c in cards)


def _the(c: Card) -> str:
    return f"the {c.title}"


def _mi(c: Card) -> str:
    return f"{c.title} ({c.miles} mi)"


def clockwise(start: int, seats: list[int], players: int) -> list[int]:
    """``seats`` ordered clockwise beginning at ``start`` (which need not be among them)."""
    if len(seats) < 2:
        return list(seats)
    return sorted(seats, key=lambda s: (s - start) % players)


def one_per_item(cards: list[int]) -> list[int]:
    """The first card of each item name: same-named cards are interchangeable."""
    seen: set[str] = set()
    out = []
    for c in cards:
        name = CARDS[c].name
        if name not in seen:
            seen.add(name)
            out.append(c)
    return out


# ---------------------------------------------------------------- setup


def deal(draw: list[int], players: int) -> tuple[list[list[int]], list[int]]:
    """Deal five cards each from the top of ``draw`` (taking them off it).

    Hazards dealt are discarded and replaced until every player holds five items.
    Returns the items dealt to each seat and the discarded hazards.
    """
    discard: list[int] = []
    dealt: list[list[int]] = [[] for _ in range(players)]
    for _ in range(HAND_SIZE):
        for seat in range(players):
            dealt[seat].append(draw.pop())
    for seat in range(players):
        hand = dealt[seat]
        while any(not CARDS[c].is_item for c in hand):
            hazards = [c for c in hand if not CARDS[c].is_item]
            discard.extend(hazards)
            hand[:] = [c for c in hand if CARDS[c].is_item]
            hand.extend(draw.pop() for _ in hazards)
    return dealt, discard


def setup_discards(hand: list[int]) -> list[int]:
    """The cards of a dealt hand that may be discarded because they do not fit.

    The player keeps any set that fits and to which no discarded card could be added, so a
    card may go when some such set leaves it out. Empty when the whole hand fits.
    """
    if bpk.fits(hand):
        return []
    subsets = [
        [c for i, c in enumerate(hand) if mask >> i & 1] for mask in range(1 << len(hand))
    ]
    fitting = [k for k in subsets if bpk.fits(k)]
    kept_sets = [
        k for k in fitting
        if not any(c not in k and bpk.fits([*k, c]) for c in hand)
    ]
    return [c for c in hand if any(c not in k for k in kept_sets)]


def setup(players: int, options: Options, seed: int) -> HikeState:
    rng = Rng.from_seed(seed)
    draw = list(range(DECK_SIZE))
    rng.shuffle(draw)
    dealt, discard = deal(draw, players)
    state = HikeState(
        players=players,
        rng=rng,
        draw_pile=draw,
        discard_pile=discard,
        backpacks=[bpk.empty() for _ in range(players)],
        dealt=dealt,
        scoring=[[] for _ in range(players)],
        debts=[None] * players,
        turn=rng.below(players),
        phase="setup",
    )
    for seat in range(players):
        _pack_dealt(state, seat)
    if not any(state.dealt):
        _start_play(state)
    return state


def _pack_dealt(s: HikeState, seat: int) -> None:
    """Pack the seat's dealt items once they fit; discard for it while only one item can go."""
    while True:
        hand = s.dealt[seat]
        choices = one_per_item(setup_discards(hand))
        if not choices:
            s.backpacks[seat] = bpk.arrange(hand)
            s.dealt[seat] = []
            return
        if len(choices) > 1:
            return
        _discard_dealt(s, seat, choices[0])


def _discard_dealt(s: HikeState, seat: int, card: int) -> None:
    s.dealt[seat] = [c for c in s.dealt[seat] if c != card]
    s.discard_pile.append(card)
    s.say(f"{PLAYERS[seat]} has no room for the {_mi(CARDS[card])} and discards it.", seat)


def _start_play(s: HikeState) -> None:
    """Every backpack is packed: the discards go back into the draw pile and play begins."""
    s.draw_pile.extend(s.discard_pile)
    s.discard_pile = []
    _shuffle(s, s.draw_pile)
    s.phase = "turn"
    s.say(f"Each player packed a backpack. {PLAYERS[s.turn]} starts (drawn at random).", s.turn)


# ---------------------------------------------------------------- whose decision


_ACTING: list = [None, []]
"""The last state asked about and its answer (the state kept alive, so its id is not
reused): a step asks for the same state several times (the loop, its legal moves, its
view, applying a move), and states are not changed once made."""


def to_act(s: HikeState) -> list[int]:
    return list(_acting(s))


def _acting(s: HikeState) -> list[int]:
    """``to_act``'s answer itself, for the rules, which only read it."""
    if _ACTING[0] is s:
        return _ACTING[1]
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
        return [s.hike.to_ask[0]]
    start = s.hike.lead if s.hike else s.turn
    return clockwise(start, [i for i, d in enumerate(s.debts) if d is not None], s.players)


def can_draw(s: HikeState) -> bool:
    return bool(s.draw_pile or s.discard_pile)


def debt_choices(s: HikeState, seat: int) -> list[int]:
    """The cards (one per item) that ``seat`` may discard towards what it owes."""
    debt = s.debts[seat]
    cards = bpk.contents(s.backpacks[seat])
    if debt is None or not cards:
        return []
    if debt.rule == "highest":
        top = max(CARDS[c].miles for c in cards)
        cards = [c for c in cards if CARDS[c].miles == top]
    return one_per_item(cards)


def legal_moves(s: HikeState, seat: int) -> list:
    if seat not in _acting(s):
        return []
    if s.phase == "setup":
        return [DISCARD[c] for c in one_per_item(setup_discards(s.dealt[seat]))]
    if s.phase == "turn":
        if not bpk.is_empty(s.backpacks[seat]):
            return [DRAW, TAKE_HIKE]
        return [DRAW]
    if s.phase == "pack":
        bp = s.backpacks[seat]
        spaces = bpk.pack_spaces(bp, s.pending)
        if spaces:
            return [PACK[sp] for sp in spaces]
        options = bpk.fit_discards(bp, s.pending)
        options.sort(key=lambda c: c != s.pending)
        return [DISCARD[c] for c in one_per_item(options)]
    if s.phase == "join":
        return [JOIN, STAY]
    if s.phase == "resolve":
        return [DISCARD[c] for c in debt_choices(s, seat)]
    # decide
    hike = s.hike
    moves = [CONTINUE] if can_draw(s) else []
    items = [c for c in hike.pile if CARDS[c].is_item]
    if len(hike.hikers) > 1:
        moves.extend(SCORE[c] for c in one_per_item(items))
    moves.append(DROP_OUT)
    return moves


# ---------------------------------------------------------------- applying a move


def _copy(s: HikeState) -> HikeState:
    """A copy safe to mutate. It shares what moves replace rather than change: the log's
    entries, each backpack, scoring pile and dealt hand, and the RNG (see ``_shuffle``).
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
_HIKE_FIELDS = frozenset(Hike.model_fields)


def apply(state: HikeState, seat: int, move) -> HikeState:
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
        _discard_dealt(s, seat, move.card)
        _pack_dealt(s, seat)
        if not any(s.dealt):
            _start_play(s)
    elif phase == "turn":
        if isinstance(move, Draw):
            _draw_turn(s)
        elif isinstance(move, TakeHike):
            _announce_hike(s, seat)
        else:
            raise IllegalMove("It is your turn: draw a card or take a hike.")
    elif phase == "pack":
        _pack(s, seat, move)
    elif phase == "join":
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
            _hike_draw(s)
    elif phase == "resolve":
        if not isinstance(move, Discard):
            raise IllegalMove("You must discard first.")
        _pay_debt(s, seat, move.card)
        _settle(s)
        if not any(s.debts):
            _after_resolving(s)
    elif phase == "decide":
        if isinstance(move, Continue):
            if not can_draw(s):
                raise IllegalMove("There are no cards left to draw: you must drop out.")
            s.say(f"{PLAYERS[seat]} continues.", seat)
        elif isinstance(move, DropOut):
            _drop_out(s, seat, move.score)
        else:
            raise IllegalMove("Decide whether to continue the hike or drop out.")
        s.hike.to_ask.pop(0)
        if not s.hike.to_ask:
            if s.hike.hikers:
                _hike_draw(s)
            else:
                _end_hike(s)
    return s


def _shuffle(s: HikeState, items: list) -> None:
    """Shuffle with the state's RNG, copied first: the state before shares it."""
    s.rng = copy_model(s.rng, {})
    s.rng.shuffle(items)


def _draw(s: HikeState) -> int:
    """The top card of the draw pile; during a hike an empty pile is remade from the discards."""
    if not s.draw_pile:
        s.draw_pile, s.discard_pile = s.discard_pile, []
        _shuffle(s, s.draw_pile)
        s.say("The discard pile is shuffled into a new draw pile to finish the hike.")
    card = s.draw_pile.pop()
    if not s.draw_pile and s.hike is not None and not s.ended_during_hike:
        s.ended_during_hike = True
        s.say("That was the last card of the draw pile: the game ends after this hike.")
    return card


def _draw_turn(s: HikeState) -> None:
    seat = s.turn
    c = CARDS[_draw(s)]
    if c.is_item:
        s.pending = c.id
        s.phase = "pack"
        return
    s.say(f"{PLAYERS[seat]} draws {_the(c)}!", seat)
    _hazard(s, c, [seat])
    s.discard_pile.append(c.id)
    _settle(s)
    if any(s.debts):
        s.phase = "resolve"
    else:
        _end_turn(s)


def _pack(s: HikeState, seat: int, move) -> None:
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
        s.say(f"{PLAYERS[seat]} draws and packs {_the(c)}.", seat)
    elif isinstance(move, Discard):
        if bpk.pack_spaces(bp, c.id):
            raise IllegalMove(f"The {c.title} fits: pack it.")
        if move.card not in bpk.fit_discards(bp, c.id):
            raise IllegalMove("Discarding that card would not make everything fit.")
        gone = CARDS[move.card]
        s.discard_pile.append(gone.id)
        if gone.id == c.id:
            s.say(f"{PLAYERS[seat]} draws {_the(c)}, has no room for it and discards it.", seat)
        else:
            s.backpacks[seat] = bpk.add(bpk.without(bp, gone.id), c.id)
            s.say(f"{PLAYERS[seat]} draws {_the(c)} and discards {_the(gone)} to make room.", seat)
    else:
        raise IllegalMove(f"Pack the {c.title} first.")
    s.pending = None
    _end_turn(s)


def _end_turn(s: HikeState) -> None:
    if not s.draw_pile:
        _finish(s)
        return
    s.turn = (s.turn + 1) % s.players
    s.phase = "turn"


# ---------------------------------------------------------------- hazards and discards


def _has(bp: dict, name: str) -> bool:
    for c in bp.values():
        if c is not None and CARDS[c].name == name:
            return True
    return False


def _hazard(s: HikeState, c: Card, seats: list[int]) -> None:
    """Apply a hazard to ``seats`` (the drawer, or every hiker). The Bear off a hike goes
    into every backpack."""
    if c.name == BEAR:
        victims = seats if s.hike is not None else list(range(s.players))
        fed = False
        for seat in victims:
            bp = s.backpacks[seat]
            bars = [x for x in bpk.contents(bp) if CARDS[x].name == GRANOLA_BAR]
            if not bars:
                continue
            if _has(bp, BEAR_SPRAY):
                s.say(f"{PLAYERS[seat]}'s Bear Spray keeps the bear away.", seat)
                continue
            for x in bars:
                bp = bpk.without(bp, x)
                s.discard_pile.append(x)
            s.backpacks[seat] = bp
            fed = True
            s.say(f"The bear eats {PLAYERS[seat]}'s {len(bars)} granola bar(s).", seat)
        if not fed:
            s.say("The bear finds no granola bars to eat.")
        return
    for seat in seats:
        bp = s.backpacks[seat]
        held = bpk.contents(bp)
        if not held:
            s.say(f"{PLAYERS[seat]}'s backpack is empty: the {c.title} finds nothing.", seat)
            continue
        if c.name == RACCOON:
            s.debts[seat] = RACCOON_DEBT
        elif c.name == SKUNK:
            s.debts[seat] = SKUNK_DEBTS[min(2, len(held))]
        elif c.name == BLISTER:
            if _has(bp, SOCKS):
                s.say(f"{PLAYERS[seat]}'s Socks prevent the blister.", seat)
            else:
                s.debts[seat] = BLISTER_DEBT


def _pay_debt(s: HikeState, seat: int, card_id: int) -> None:
    debt = s.debts[seat]
    bp = s.backpacks[seat]
    if bpk.space_of(bp, card_id) is None:
        raise IllegalMove("That card is not in your backpack.")
    c = CARDS[card_id]
    if debt.rule == "highest" and c.miles != max(CARDS[x].miles for x in bpk.contents(bp)):
        raise IllegalMove("The Blister takes a card with the most miles in your backpack.")
    _discard_from(s, seat, c)


def _discard_from(s: HikeState, seat: int, c: Card) -> None:
    """Discard ``c`` from ``seat``'s backpack towards what the seat owes."""
    s.backpacks[seat] = bpk.without(s.backpacks[seat], c.id)
    s.discard_pile.append(c.id)
    debt = s.debts[seat]
    to = "for" if debt.rule == "miles" else "to"
    s.say(f"{PLAYERS[seat]} discards the {_mi(c)} {to} the {debt.reason}.", seat)
    if debt.rule == "miles":
        left = debt.miles - c.miles
        s.debts[seat] = copy_model(debt, {"miles": left}) if left > 0 else None
    elif debt.rule == "any" and debt.count > 1:
        s.debts[seat] = copy_model(debt, {"count": debt.count - 1})
    else:
        s.debts[seat] = None


def _settle(s: HikeState) -> None:
    """Make every discard nobody could choose differently."""
    for seat, debt in enumerate(s.debts):
        while debt is not None:
            held = bpk.contents(s.backpacks[seat])
            if not held:
                s.debts[seat] = None
                break
            everything = (debt.rule == "any" and debt.count >= len(held)) or (
                debt.rule == "miles" and _miles(held) <= debt.miles
            )
            if everything:
                for x in held:
                    _discard_from(s, seat, CARDS[x])
                s.debts[seat] = None
                break
            choices = debt_choices(s, seat)
            if len(choices) != 1:
                break
            _discard_from(s, seat, CARDS[choices[0]])
            debt = s.debts[seat]


# ---------------------------------------------------------------- hikes


def _announce_hike(s: HikeState, seat: int) -> None:
    if bpk.is_empty(s.backpacks[seat]):
        raise IllegalMove("You need at least one card in your backpack to take a hike.")
    others = [p for p in range(s.players) if p != seat and not bpk.is_empty(s.backpacks[p])]
    s.hike = unchecked(
        Hike,
        {
            "lead": seat,
            "original_lead": seat,
            "joined": [seat],
            "hikers": [seat],
            "pile": [],
            "to_ask": clockwise(seat, others, s.players),
        },
        set(_HIKE_FIELDS),
    )
    s.say(f"{PLAYERS[seat]} takes a hike and is the lead hiker.", seat)
    if s.hike.to_ask:
        s.phase = "join"
    else:
        _hike_draw(s)


def _hike_draw(s: HikeState) -> None:
    hike = s.hike
    c = CARDS[_draw(s)]
    hike.pile.append(c.id)
    if c.is_item:
        s.say(f"{PLAYERS[hike.lead]} turns up the {_mi(c)}.", hike.lead)
        for seat in hike.hikers:
            if not _has(s.backpacks[seat], c.name):
                s.debts[seat] = MILES_DEBTS[c.id]
    else:
        s.say(f"{PLAYERS[hike.lead]} turns up {_the(c)}!", hike.lead)
        _hazard(s, c, list(hike.hikers))
    _settle(s)
    if any(s.debts):
        s.phase = "resolve"
    else:
        _after_resolving(s)


def _after_resolving(s: HikeState) -> None:
    hike = s.hike
    if hike is None:
        _end_turn(s)
        return
    for seat in list(hike.hikers):
        if bpk.is_empty(s.backpacks[seat]):
            s.say(f"{PLAYERS[seat]}'s backpack is empty: out of the hike without scoring.", seat)
            _leave(s, seat)
    if not hike.hikers:
        _end_hike(s)
        return
    hike.to_ask = clockwise(hike.lead, hike.hikers, s.players)
    s.phase = "decide"


def _leave(s: HikeState, seat: int) -> None:
    hike = s.hike
    hike.hikers.remove(seat)
    if seat == hike.lead and hike.hikers:
        hike.lead = clockwise(seat, hike.hikers, s.players)[0]
        s.say(f"{PLAYERS[hike.lead]} is now the lead hiker.", hike.lead)


def _drop_out(s: HikeState, seat: int, score: int | None) -> None:
    hike = s.hike
    items = [c for c in hike.pile if CARDS[c].is_item]
    if len(hike.hikers) == 1:
        if score is not None:
            raise IllegalMove("As the last hiker you score every item card left: choose none.")
        s.scoring[seat] = [*s.scoring[seat], *items]
        hike.pile = [c for c in hike.pile if not CARDS[c].is_item]
        if items:
            s.say(
                f"{PLAYERS[seat]} drops out last and scores {len(items)} card(s), "
                f"{_miles(items)} mi.",
                seat,
            )
        else:
            s.say(f"{PLAYERS[seat]} drops out last with nothing to score.", seat)
    elif score is None:
        if items:
            s.say(f"{PLAYERS[seat]} drops out without taking a card.", seat)
        else:
            s.say(f"{PLAYERS[seat]} drops out with nothing to score.", seat)
    else:
        if score not in items:
            raise IllegalMove("That card is not an item card in the hiking pile.")
        hike.pile.remove(score)
        s.scoring[seat] = [*s.scoring[seat], score]
        s.say(f"{PLAYERS[seat]} drops out and scores the {_mi(CARDS[score])}.", seat)
    _leave(s, seat)


def _end_hike(s: HikeState) -> None:
    hike = s.hike
    s.discard_pile.extend(hike.pile)
    s.hike = None
    if s.ended_during_hike or not s.draw_pile:
        _finish(s)
        return
    s.turn = (hike.original_lead + 1) % s.players
    s.phase = "turn"
    s.say(f"The hike is over. {PLAYERS[s.turn]}'s turn.", s.turn)


# ---------------------------------------------------------------- the end


def _finish(s: HikeState) -> None:
    s.game_over = True
    s.phase = "over"
    ranks = [(_miles(p), len(p)) for p in s.scoring]
    best = max(ranks)
    tied = [seat for seat, r in enumerate(ranks) if r == best]
    if len(tied) > 1:
        s.tie_break = _skunk_tie_break(s, tied)
    s.say("The draw pile is empty: the game is over.")


def _skunk_tie_break(s: HikeState, tied: list[int]) -> TieBreak:
    """The tied players draw in turn, in an order drawn at random, from the reshuffled loose
    cards; whoever draws a Skunk loses and stops drawing, until one player is left or no
    Skunk remains."""
    order = list(tied)
    _shuffle(s, order)
    s.say(
        "A tie: " + ", ".join(PLAYERS[p] for p in order)
        + " draw for the Skunk in that order (drawn at random)."
    )
    pile = [*s.discard_pile, *s.draw_pile]
    _shuffle(s, pile)
    left = list(order)
    draws: list[tuple[int, int]] = []
    losers: list[int] = []
    i = 0
    skunks = sum(CARDS[c].name == SKUNK for c in pile)
    while len(left) > 1 and skunks and pile:
        seat = left[i % len(left)]
        c = pile.pop()
        draws.append((seat, c))
        if CARDS[c].name == SKUNK:
            skunks -= 1
            losers.append(seat)
            left.remove(seat)
            s.say(f"{PLAYERS[seat]} draws the Skunk and loses the tie.", seat)
        else:
            i += 1
    return TieBreak(tied=tied, order=order, draws=draws, losers=losers, winners=sorted(left))


def scores(s: HikeState) -> list[int]:
    return [_miles(p) for p in s.scoring]


# ---------------------------------------------------------------- labels


# Labels built once: a view labels every legal move, and most labels depend on the move alone.
_LABELS = {
    Draw: "Draw a card",
    TakeHike: "Take a hike",
    Join: "Join the hike",
    StayBehind: "Stay at camp",
    Continue: "Continue the hike",
}
_PACK_LABELS = tuple(
    {sp: f"Pack the {c.title} in the {SPACE_TITLES[sp]}" for sp in SPACES} for c in CARDS
)
_LEAVE_OUT_LABELS = tuple(f"Leave out the {_mi(c)}" for c in CARDS)
_DISCARD_NEW_LABELS = tuple(f"Discard the new {c.title}" for c in CARDS)
_MAKE_ROOM_LABELS = tuple(f"Discard the {_mi(c)} to make room" for c in CARDS)
_DISCARD_LABELS = tuple(f"Discard the {_mi(c)}" for c in CARDS)
_SCORE_LABELS = tuple(f"Drop out and score the {_mi(c)}" for c in CARDS)


def describe(s: HikeState, seat: int, move) -> str:
    kind = type(move)
    label = _LABELS.get(kind)
    if label is not None:
        return label
    if kind is Pack:
        return _PACK_LABELS[s.pending][move.space]
    if kind is Discard:
        if s.phase == "setup":
            return _LEAVE_OUT_LABELS[move.card]
        if s.phase == "pack":
            if move.card == s.pending:
                return _DISCARD_NEW_LABELS[move.card]
            return _MAKE_ROOM_LABELS[move.card]
        return _DISCARD_LABELS[move.card]
    if kind is DropOut:
        if move.score is not None:
            return _SCORE_LABELS[move.score]
        items = [c for c in s.hike.pile if CARDS[c].is_item] if s.hike else []
        if not items:
            return "Drop out (nothing to score)"
        if len(s.hike.hikers) > 1:
            return "Drop out without taking a card"
        return f"Drop out and score all {len(items)} card(s) ({_miles(items)} mi)"
    return str(move)


def labelled(s: HikeState, seat: int, legal: list) -> list[dict]:
    """``Game.labelled``: each move's JSON and label, made once per move and label and shared
    between views (views are read, never changed)."""
    shown = []
    for move in legal:
        entry = _FIXED_ENTRIES.get(id(move))
        if entry is None:
            label = describe(s, seat, move)
            hit = _ENTRIES.get((id(move), label))
            if hit is not None and hit[0] is move:
                entry = hit[1]
            else:
                entry = {"move": move_json(move), "label": label}
                keep(_ENTRIES, (id(move), label), (move, entry), _ENTRIES_KEPT)
        shown.append(entry)
    return shown


_FIXED_ENTRIES = {
    **{
        id(move): {"move": move_json(move), "label": _LABELS[type(move)]}
        for move in (DRAW, TAKE_HIKE, JOIN, STAY, CONTINUE)
    },
    **{id(move): {"move": move_json(move), "label": _SCORE_LABELS[move.score]} for move in SCORE},
}
"""The entries of the moves made once above whose label is the move's alone, by id (the
moves live as long as the module, so their ids are not reused)."""
_ENTRIES: dict[tuple[int, str], tuple] = {}
"""The others' (packing, discards, dropping out with nothing chosen), by the move's id and
label, the move kept alive here so that its id is not reused; the oldest dropped first."""
_ENTRIES_KEPT = 4096


def outcome(s: HikeState) -> Outcome | None:
    if not s.game_over:
        return None
    miles = scores(s)
    cards = [len(p) for p in s.scoring]
    if s.tie_break is not None:
        winners = list(s.tie_break.winners)
    else:
        winners = [max(range(s.players), key=lambda p: (miles[p], cards[p]))]
    return Outcome(
        scores=miles,
        winners=winners,
        details={
            "cards": cards,
            "tie_break": s.tie_break.model_dump(mode="json") if s.tie_break else None,
        },
    )

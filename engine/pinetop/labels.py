"""Words for moves and cards: the labels on the buttons and the reasons a move is refused."""

from __future__ import annotations

from engine.pinetop import costs, rules
from engine.pinetop.board import tower_step
from engine.pinetop.cards import MASTERIES, PATCHES, SUPPLY
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
from engine.pinetop.payment import TENT
from engine.pinetop.state import SEAT_NAMES, PinetopState


def card_label(card: int) -> str:
    """``Wood (green tent)``, ``Wood/Water (blue tent)``, ``Wild``, ``Wood + Wild``."""
    c = SUPPLY[card]
    parts = [s.title() for s in c.suits] + (["Wild"] if c.wild else [])
    text = "/".join(parts) if not c.wild else " + ".join(parts)
    return f"{text} ({c.tent} tent)" if c.tent else text


def face_up_label(s: PinetopState, slot: int) -> str:
    """``card_label`` of the card in a face-up slot that holds one (a legal move's)."""
    card = s.face_up[slot]
    assert card is not None  # moves name only slots with a card
    return card_label(card)


def _power_name(s: PinetopState) -> str:
    assert s.power is not None  # the power phase has a green power in hand
    return PATCHES[s.power.patch].name


def _requirement(req: str) -> str:
    if req.startswith(TENT):
        return f"{req[len(TENT) :]} tent"
    return "any card" if req == "any" else req


def requirements(reqs: tuple[str, ...]) -> str:
    return ", ".join(_requirement(r) for r in reqs) or "nothing"


def _side(slot: int) -> str:
    return "left" if slot < 2 else "right"


def _slot(slot: int) -> str:
    """Two cards lie on each side of the deck: the outer one and the inner one."""
    return f"{_side(slot)}, {'outer' if slot in (0, 3) else 'inner'}"


def describe(s: PinetopState, seat: int, move: Move) -> str:
    name = rules.card_name
    if isinstance(move, DrawDeck):
        return "Draw from the supply deck"
    if isinstance(move, Take):
        verb = "Take" if s.phase != "power" else f"{_power_name(s)}: take"
        return f"{verb} {face_up_label(s, move.slot)} ({_slot(move.slot)})"
    if isinstance(move, Refresh):
        if s.refreshed:
            return "Discard the three new matching face-up cards too and turn up new ones"
        if move.keep is not None:
            return (
                f"Keep {face_up_label(s, move.keep)} ({_slot(move.keep)}); discard "
                "the other three matching face-up cards and turn up new ones"
            )
        return "Discard the three matching face-up cards and turn up new ones"
    if isinstance(move, Done):
        return "End your turn"
    if isinstance(move, Stop):
        return "Draw no more"
    if isinstance(move, MoveCamper):
        owed, gifts = costs.gifts_due(s, seat, move.to)
        via = ""
        if move.tower:
            mid = tower_step(s.cols, move.start, s.tower)
            via = f" (free tower step via {name(s, mid)})"
        text = f"Move {name(s, move.start)} → {name(s, move.to)}{via}"
        if move.patch:
            patch = rules.crossed(s, move.start, move.to, move.tower)
            cost = requirements(costs.patch_cost(s, seat, move.to))
            text += f": gain {PATCHES[patch].name}, pay {cost}"
        if gifts:
            text += f"; {gifts} gift{'s' if gifts > 1 else ''} to " + ", ".join(
                SEAT_NAMES[p] for p in owed
            )
        if s.phase == "action" and not move.patch:
            text += "; then draw a card"  # Draw & Move, the move first
        return text
    if isinstance(move, Place):
        if s.phase == "setup":
            return f"Place your first camper on {name(s, move.to)}"
        if s.phase == "power":
            return f"{_power_name(s)}: place a camper on {name(s, move.to)}"
        cost = requirements(costs.tent_cost(s, seat, move.to))
        return f"Place a camper on {name(s, move.to)}: pay {cost}"
    if isinstance(move, Give):
        return f"Give {card_label(move.card)} to {SEAT_NAMES[move.to]}"
    if isinstance(move, Pay):
        return f"Pay {card_label(move.card)}"
    if isinstance(move, Step):
        return f"Trailblazer: move {name(s, move.start)} → {name(s, move.to)} for free"
    if isinstance(move, Skip):
        return f"Skip the rest of {_power_name(s)}"
    if isinstance(move, Claim):
        m = MASTERIES[move.mastery]
        return f"Claim {PATCHES[m.patches[move.spot]].name} on {m.name}"
    if isinstance(move, Befriend):
        level = "advanced" if s.patches[move.owner][move.patch] else "basic"
        return f"Friendship: use {SEAT_NAMES[move.owner]}'s {PATCHES[move.patch].name} ({level})"
    if isinstance(move, Discard):
        return f"Discard {card_label(move.card)}"
    assert isinstance(move, Pass)
    return "Pass"


_PROMPTS = {
    "setup": "place your first camper on a map card, then give the gifts due.",
    "action": "draw, move a camper onto a card for its patch, or place a camper.",
    "draw": "draw a second card, move a camper, or draw no more.",
    "gift": "give a supply card to each player due one.",
    "pay": "pay the cost one card at a time.",
    "power": "use your green patch's power or skip it (or first claim a mastery card).",
    "mastery": "claim a spot on the mastery card you completed.",
    "after": "make a free move or spend your Friendship token, or end your turn.",
    "discard": "discard down to your hand limit.",
    "over": "the game is over.",
}
_DRAW_AFTER_MOVE = "draw a card, from the deck or face up (not a wild)."


def reason(s: PinetopState, seat: int, move: Move) -> str:
    """Why ``move`` is not legal now, in words a player can act on."""
    if seat not in rules.to_act(s):
        return "It is not your turn."
    moved = s.phase == "draw" and s.moved
    now = f"Now you must {_DRAW_AFTER_MOVE if moved else _PROMPTS[s.phase]}"
    if isinstance(move, (Give, Pay, Discard)) and move.card not in s.hands[seat]:
        return f"You do not hold supply card {move.card}. {now}"
    if isinstance(move, Give) and s.pending is not None and move.to not in s.pending.owed:
        return f"{SEAT_NAMES[move.to]} is not due a gift from you. {now}"
    if isinstance(move, Pay) and s.phase == "pay":
        assert s.pending is not None  # the payment is for a camper on its way
        return f"{card_label(move.card)} does not help to pay {requirements(s.pending.cost)}. {now}"
    if isinstance(move, Take) and s.phase in ("action", "draw"):
        card = s.face_up[move.slot]
        if card is None:
            return f"There is no face-up card there. {now}"
        if moved and SUPPLY[card].wild:
            return f"Draw & Move draws a card that is not wild. {now}"
        if s.drawn and SUPPLY[card].wild:
            return f"A face-up wild must be the only card you take. {now}"
        if s.drawn and s.draw_side and _side(move.slot) != s.draw_side:
            return f"You may not draw from both sides of the deck. {now}"
    if isinstance(move, (MoveCamper, Step)) and move.start >= len(s.grid):
        return f"There is no map card at {move.start}. {now}"
    if isinstance(move, (MoveCamper, Step)) and seat not in s.campers[move.start]:
        return f"You have no camper on {rules.card_name(s, move.start)}. {now}"
    if isinstance(move, MoveCamper) and s.phase in ("action", "draw"):
        if moved:
            return f"You have moved a camper for Draw & Move already. {now}"
        if move.patch and s.phase == "draw":
            return f"After drawing a card you may only move without gaining a patch. {now}"
        return (
            f"That move is not open to you: the cards must be next to each other (not "
            f"diagonal), and you must afford the cost and the gifts. {now}"
        )
    if isinstance(move, Place) and s.phase == "action" and not s.campers_left[seat]:
        return f"All your campers are on the map. {now}"
    if isinstance(move, Claim):
        return f"You may not claim that mastery spot. {now}"
    return f"That move is not allowed now. {now}"

"""Summer Camp rules: whose decision it is, the legal moves and how each changes the state.

Outside a prompt the active player moves freely: play a card (for its action or 1 energy),
buy, spend a snack bar token, end the turn. A card that asks for decisions queues prompts
(``state.prompts``); the first is answered before anything else, by every seat it names.
"""

from __future__ import annotations

from typing import Any

from engine.core import IllegalMove
from engine.summer_camp import actions, turn
from engine.summer_camp.actions import answers, can_act, keys, prompt_text, settle
from engine.summer_camp.cards import CARDS, PACKS, PRICES
from engine.summer_camp.effects import path_name, name
from engine.summer_camp.moves import (
    Buy,
    ChooseCard,
    ChoosePath,
    ChoosePile,
    ChoosePlayer,
    Done,
    EndTurn,
    Move,
    Play,
    SpendSnack,
)
from engine.summer_camp.state import SummerCampState

PLAY = {(key, use): Play(card=key, use=use) for key in CARDS for use in ("action", "energy")}
BUY = {key: Buy(card=key) for key in CARDS}
SPEND_SNACK = SpendSnack()
END_TURN = EndTurn()
CHEAPEST = min(card.cost for card in CARDS.values() if card.cost is not None)


def to_act(s: SummerCampState) -> list[int]:
    if s.over:
        return []
    if s.prompts:
        return list(s.prompts[0].seats)
    return [s.active]


def legal_moves(s: SummerCampState, seat: int) -> list[Move]:
    if seat not in to_act(s):
        return []
    if s.prompts:
        return answers(s, s.prompts[0], seat)
    hand = s.hands[seat]
    moves: list[Move] = []
    more = len(hand) > 1
    for key in keys(hand):
        if can_act(s, seat, key, more):
            moves.append(PLAY[key, "action"])
        moves.append(PLAY[key, "energy"])
    if s.energy >= CHEAPEST:
        moves += [BUY[key] for key in turn.display_keys(s) if PRICES[key] <= s.energy]
    if s.snacks[seat]:
        moves.append(SPEND_SNACK)
    moves.append(END_TURN)
    return moves


def apply(s: SummerCampState, seat: int, move: Move) -> SummerCampState:
    if seat not in to_act(s):
        raise IllegalMove("It is not your turn.")
    s = s.successor()
    if s.prompts:
        actions.answer(s, seat, move)
    elif isinstance(move, Play):
        if move.use == "energy":
            turn.play_for_energy(s, seat, move.card)
        else:
            actions.play_for_action(s, seat, move.card)
    elif isinstance(move, Buy):
        turn.buy(s, seat, move.card)
    elif isinstance(move, SpendSnack):
        turn.spend_snack(s, seat)
    elif isinstance(move, EndTurn):
        turn.end_turn(s, seat)
    else:
        raise IllegalMove("There is no question to answer now: play, buy or end your turn.")
    settle(s)
    return s


def describe(s: SummerCampState, seat: int, move: Move) -> str:
    if isinstance(move, Play):
        card = CARDS[move.card]
        if move.use == "energy":
            return f"Play {card.name} for 1 energy"
        return f"Play {card.name}: {_action_label(s, move.card)}"
    if isinstance(move, Buy):
        return f"Buy {CARDS[move.card].name} ({CARDS[move.card].cost} energy)"
    if isinstance(move, SpendSnack):
        return f"Spend a snack bar token for {turn.snack_value(s)} energy"
    if isinstance(move, EndTurn):
        return "End your turn"
    p = s.prompts[0]
    if isinstance(move, ChoosePath):
        where = f"{path_name(s, move.path)} (from {s.pawns[seat][move.path]})"
        if p.kind == "gods_eye":
            return f"Return 2 snack bar tokens and move 1 space on {where}"
        if p.kind == "bonus_move":
            return f"Bonus: move 1 on {where}"
        return f"Move {p.spaces} on {where}"
    if isinstance(move, ChooseCard):
        title = CARDS[move.card].name
        return {
            "scavenger_hunt": f"Discard {title}",
            "bird_watching": f"Discard {title}",
            "dodgeball": f"Discard {title}",
            "tie_dye": f"Discard {title}, then move 1 space",
            "macaroni_sculpture": f"Discard {title} for 3 snack bar tokens",
            "plant_identification": f"Take {title} from your discard pile",
        }.get(p.kind) or f"Take {title} ({CARDS[move.card].cost} energy) {_take_where(p.card)}"
    if isinstance(move, ChoosePile):
        return f"Take the top card of the {PACKS[s.paths[move.path].pack]} pile"
    if isinstance(move, ChoosePlayer):
        return f"Give {CARDS[p.card].name} to {name(move.seat)}"
    if isinstance(move, Done):
        if p.kind == "scavenger_hunt":
            return f"Stop and draw {p.done} card{'s' if p.done != 1 else ''}"
        return f"Stop ({CARDS[p.card].name})"
    return str(move)


def _take_where(by: str) -> str:
    return {
        "zip_lining": "into your hand",
        "ropes_course": "onto your draw pile",
        "climbing_wall": "onto your discard pile",
    }[by]


def _action_label(s: SummerCampState, key: str) -> str:
    card = CARDS[key]
    if card.action == "move":
        return f"move {card.amount} on {path_name(s, s.packs.index(card.pack))}"
    first = card.text.split(". ")[0].rstrip(".")
    label = first[0].lower() + first[1:]
    if card.action in ("secret_admirer", "friendship_bracelet"):
        label += ", then it goes to an opponent"
    return label


def prompt_of(s: SummerCampState) -> dict[str, Any] | None:
    if not s.prompts:
        return None
    p = s.prompts[0]
    return {
        "kind": p.kind,
        "seats": list(p.seats),
        "card": p.card or None,
        "text": prompt_text(s, p),
        "left": p.left,
        "done": p.done,
    }

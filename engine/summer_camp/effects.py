"""What cards and bonus icons do to a player: draw, snack bar tokens, pawn moves."""

from __future__ import annotations

from engine.core import copy_model
from engine.summer_camp.board import BRIDGES, FINAL_BRIDGE, SNACK_LIMIT
from engine.summer_camp.cards import CARDS, COPIES, PACKS
from engine.summer_camp.state import SEAT_NAMES, Prompt, SummerCampState
from engine.words import plural


def name(seat: int) -> str:
    return SEAT_NAMES[seat]


def card_name(copy: int) -> str:
    return CARDS[COPIES[copy]].name


def path_name(s: SummerCampState, path: int) -> str:
    return f"the {PACKS[s.paths[path].pack]} path"


def draw(s: SummerCampState, seat: int, n: int) -> int:
    """Draw up to ``n`` cards, reshuffling the discard pile when the draw pile runs out."""
    got = 0
    for _ in range(n):
        if not s.draws[seat]:
            if not s.discards[seat]:
                break
            s.draws[seat], s.discards[seat] = s.discards[seat], []
            s.rng = copy_model(s.rng, {})  # the state before this step shares it
            s.rng.shuffle(s.draws[seat])
            s.say(f"{name(seat)} shuffles their discard pile into a new draw pile.", seat)
        s.hands[seat].append(s.draws[seat].pop())
        got += 1
    return got


def draw_and_say(s: SummerCampState, seat: int, n: int, why: str = "") -> None:
    got = draw(s, seat, n)
    text = f"{name(seat)} draws {plural(got, 'card')}"
    if got < n:
        text += " (no more cards to draw)"
    s.say(text + (f" {why}" if why else "") + ".", seat)


def gain_snacks(s: SummerCampState, seat: int, n: int) -> int:
    """Take up to ``n`` tokens from the supply, stopping at the limit of 6."""
    got = max(0, min(n, SNACK_LIMIT - s.snacks[seat], s.snack_supply))
    s.snacks[seat] += got
    s.snack_supply -= got
    return got


def gain_snacks_and_say(s: SummerCampState, seat: int, n: int) -> None:
    got = gain_snacks(s, seat, n)
    text = f"{name(seat)} gains {plural(got, 'snack bar token')}"
    if got < n:
        text += " (the limit is 6)"
    s.say(text + ".", seat)


def lose_snack(s: SummerCampState, seat: int) -> None:
    s.snacks[seat] -= 1
    s.snack_supply += 1


def can_move(s: SummerCampState, seat: int, path: int) -> bool:
    return s.pawns[seat][path] < FINAL_BRIDGE


def movable_paths(s: SummerCampState, seat: int) -> list[int]:
    return [p for p in range(len(s.paths)) if can_move(s, seat, p)]


def move_pawn(s: SummerCampState, seat: int, path: int, spaces: int) -> int:
    """Move a pawn forward, stopping at the final bridge; every bonus icon moved onto or
    through is gained in order. A "move a pawn" icon asks its owner first, before any decision
    already waiting. Returns where the pawn lands."""
    start = s.pawns[seat][path]
    end = min(start + spaces, FINAL_BRIDGE)
    s.pawns[seat][path] = end
    moved = end - start
    s.say(
        f"{name(seat)} moves {plural(moved, 'space')} on {path_name(s, path)} "
        f"(to {end}{', a bridge' if end in BRIDGES else ''}).",
        seat,
    )
    asks: list[Prompt] = []
    for pos in range(start + 1, end + 1):
        bonus = s.paths[path].bonuses[pos]
        if bonus == "draw":
            draw_and_say(s, seat, 1, "for a bonus icon")
        elif bonus == "snack":
            if gain_snacks(s, seat, 1):
                s.say(f"{name(seat)} gains a snack bar token for a bonus icon.", seat)
            else:
                s.say(
                    f"{name(seat)} already has 6 snack bar tokens: the bonus icon gives none.", seat
                )
        elif bonus == "move":
            s.say(f"{name(seat)} may move a pawn 1 space for a bonus icon.", seat)
            asks.append(Prompt(kind="bonus_move", seats=[seat], spaces=1))
    s.prompts = asks + s.prompts
    return end

"""Setup and the turn itself: play, buy, spend tokens, end the turn, badges, the game's end."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import IllegalMove, Rng
from engine.summer_camp.board import (
    DISPLAY_SLOTS,
    FINAL_BRIDGE,
    FIRST_BRIDGE,
    HAND_SIZE,
    PATH_BOARDS,
    SECOND_BRIDGE,
    SNACK_SUPPLY,
    START_POSITION,
    STARTING_HAND,
    STARTING_SNACKS,
    build_path,
)
from engine.summer_camp.cards import (
    ACTIVITY_BADGES,
    ALL_STAR_BADGES,
    CARD_LIST,
    CARDS,
    COPIES,
    PACKS,
    PARTICIPATION_BADGES,
    starting_card,
)
from engine.summer_camp.effects import card_name, draw, name
from engine.summer_camp.state import Badge, Path, SummerCampState, played
from engine.words import plural

SUPPLY_PILES = ("smores", "scavenger_hunt", "free_time")
BADGE_NAMES = {"participation": "Participation", "all_star": "Camp All-Star", **PACKS}


def setup(players: int, packs: Sequence[str], seed: int) -> SummerCampState:
    s = SummerCampState(players=players, packs=list(packs), rng=Rng.from_seed(seed))
    boards = list(PATH_BOARDS)
    s.rng.shuffle(boards)
    by_key: dict[str, list[int]] = {c.key: [] for c in CARD_LIST}
    for i, key in enumerate(COPIES):
        by_key[key].append(i)
    for p, pack in enumerate(packs):
        laid = boards[3 * p : 3 * p + 3]
        pile = [
            i for c in CARD_LIST if c.pack == pack and c.cost is not None for i in by_key[c.key]
        ]
        s.rng.shuffle(pile)
        display: list[int | None] = [pile.pop() for _ in range(DISPLAY_SLOTS)]
        s.paths.append(Path(pack=pack, boards=laid, bonuses=build_path(laid)))
        s.piles.append(pile)
        s.display.append(display)
        s.activity_badges.append(list(ACTIVITY_BADGES[players]))
    s.supply = {key: by_key[key] for key in SUPPLY_PILES}
    s.participation = list(PARTICIPATION_BADGES[players])
    s.all_star = list(ALL_STAR_BADGES[players])
    s.snack_supply = SNACK_SUPPLY - STARTING_SNACKS * players
    s.snacks = [STARTING_SNACKS] * players
    s.pawns = [[START_POSITION[players]] * 3 for _ in range(players)]
    s.badges = [[] for _ in range(players)]
    s.start_player = s.active = s.rng.below(players)
    lights_out = by_key["lights_out"]
    starts = {pack: by_key[starting_card(pack)] for pack in packs}
    for seat in range(players):
        deck = lights_out[7 * seat : 7 * seat + 7] + [starts[pack][seat] for pack in packs]
        s.rng.shuffle(deck)
        s.draws.append(deck)
        s.discards.append([])
        s.hands.append([])
    s.say(
        "The paths lead to " + ", ".join(PACKS[p] for p in packs) + ". "
        f"{name(s.start_player)} is the start player."
    )
    for k in range(players):
        seat = (s.start_player + k) % players
        draw(s, seat, STARTING_HAND[k])
        s.say(f"{name(seat)} draws a starting hand of {STARTING_HAND[k]} cards.", seat)
    return s


def find(cards: list[int], key: str) -> int | None:
    """The index of the last copy of ``key`` in ``cards``."""
    for i in range(len(cards) - 1, -1, -1):
        if COPIES[cards[i]] == key:
            return i
    return None


def display_keys(s: SummerCampState) -> list[str]:
    """The face-up cards that may be taken now: the activity cards and the base piles' tops."""
    keys = [COPIES[c] for d in s.display for c in d if c is not None]
    keys += [key for key, pile in s.supply.items() if pile]
    return list(dict.fromkeys(keys))


def take_from_display(s: SummerCampState, key: str) -> int:
    s.own_table()
    if key in s.supply:
        if not s.supply[key]:
            raise IllegalMove(f"The {CARDS[key].name} pile is empty.")
        return s.supply[key].pop()
    for display in s.display:
        for i, c in enumerate(display):
            if c is not None and COPIES[c] == key:
                display[i] = None
                return c
    raise IllegalMove(f"{CARDS[key].name} is not in the display.")


def take_from_hand(s: SummerCampState, seat: int, key: str) -> int:
    i = find(s.hands[seat], key)
    if i is None:
        raise IllegalMove(f"You have no {CARDS[key].name} in your hand.")
    return s.hands[seat].pop(i)


def play_for_energy(s: SummerCampState, seat: int, key: str) -> None:
    card = take_from_hand(s, seat, key)
    s.played.append(played(card, "energy"))
    s.energy += 1
    s.say(f"{name(seat)} plays {card_name(card)} for 1 energy.", seat)


def buy(s: SummerCampState, seat: int, key: str) -> None:
    cost = CARDS[key].cost
    if cost is None:
        raise IllegalMove(f"{CARDS[key].name} is never for sale.")
    if key not in display_keys(s):
        if key in s.supply:
            raise IllegalMove(f"The {CARDS[key].name} pile is empty.")
        raise IllegalMove(f"{CARDS[key].name} is not in the display.")
    if cost > s.energy:
        raise IllegalMove(f"{CARDS[key].name} costs {cost} energy; you have {s.energy}.")
    card = take_from_display(s, key)
    s.energy -= cost
    s.discards[seat].append(card)
    s.say(f"{name(seat)} buys {card_name(card)} for {cost} energy.", seat)


def snack_value(s: SummerCampState) -> int:
    return 2 if s.bird_feeder else 1


def spend_snack(s: SummerCampState, seat: int) -> None:
    if not s.snacks[seat]:
        raise IllegalMove("You have no snack bar token to spend.")
    s.snacks[seat] -= 1
    s.snack_supply += 1
    s.energy += snack_value(s)
    s.say(f"{name(seat)} spends a snack bar token for {snack_value(s)} energy.", seat)


def end_turn(s: SummerCampState, seat: int) -> None:
    s.say(
        f"{name(seat)} ends their turn and discards "
        f"{plural(len(s.played) + len(s.hands[seat]), 'card')}.",
        seat,
    )
    s.discards[seat] += [p.card for p in s.played] + s.hands[seat]
    s.played, s.hands[seat] = [], []
    s.energy, s.bird_feeder = 0, False
    got = draw(s, seat, HAND_SIZE)
    s.say(f"{name(seat)} draws a new hand of {plural(got, 'card')}.", seat)
    s.own_table()  # the display is refilled, badges may be taken
    for display, pile in zip(s.display, s.piles):
        for i, c in enumerate(display):
            if c is None and pile:
                card = display[i] = pile.pop()
                s.say(f"{card_name(card)} is added to the display.")
    check_badges(s, seat)
    if sum(b.kind in PACKS for b in s.badges[seat]) == 3 and not s.ending:
        s.ending = True
        s.say(
            f"{name(seat)} has all three activity badges: the round is finished, "
            "then the game ends.",
            seat,
        )
    nxt = (seat + 1) % s.players
    if s.ending and nxt == s.start_player:
        s.over = True
        s.say("Everyone has had the same number of turns: the game is over.")
        return
    if nxt == s.start_player:
        s.turn += 1
    s.active = nxt


def _award(s: SummerCampState, seat: int, kind: str, stack: list[int]) -> None:
    if stack and all(b.kind != kind for b in s.badges[seat]):
        points = stack.pop(0)
        s.badges[seat].append(Badge(kind=kind, points=points))
        s.say(f"{name(seat)} earns the {points}-point {BADGE_NAMES[kind]} merit badge.", seat)


def check_badges(s: SummerCampState, seat: int) -> None:
    pawns = s.pawns[seat]
    if min(pawns) >= FIRST_BRIDGE:
        _award(s, seat, "participation", s.participation)
    if min(pawns) >= SECOND_BRIDGE:
        _award(s, seat, "all_star", s.all_star)
    for p, pos in enumerate(pawns):
        if pos >= FINAL_BRIDGE:
            _award(s, seat, s.paths[p].pack, s.activity_badges[p])

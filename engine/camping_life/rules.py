"""Camping Life rules: setup, whose turn it is, the legal moves and how each changes the state
(the moves' words are in ``labels``).

The order of one round: three bidding turns (starter first, each a coin on a card then a coin
on the table, table coins turned over after both played); the higher table total picks a
next-round card and places it; the coins on the cards are turned over and the won cards are
placed, each player placing the cards they won in the order they choose; then a new round.
A tie on the table discards both next-round cards.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, TypeVar

from engine.camping_life import area as play_area
from engine.camping_life.area import where
from engine.camping_life.cards import CARDS, MISSION_IDS, TERRAIN_IDS
from engine.camping_life.moves import BidCard, BidTable, Move, Pick, Place
from engine.camping_life.reveal import placement, reveal, settle
from engine.camping_life.scoring import CELLS, COLS, ROWS, area_of, breakdown
from engine.camping_life.state import COINS, SEAT_NAMES, Bid, CampingLifeState
from engine.core import IllegalMove, Outcome, Rng

T = TypeVar("T")

ROW_SIZE = 4
NEXT_ROUND_SIZE = 2
TURNS = 3


def setup(players: int, seed: int) -> CampingLifeState:
    s = CampingLifeState(players=players, rng=Rng.from_seed(seed))
    missions = list(MISSION_IDS)
    s.rng.shuffle(missions)
    s.open_missions = missions[:2]
    s.secret_missions = missions[2 : 2 + players]
    s.mission_pile = missions[2 + players :]
    s.draw = list(TERRAIN_IDS)
    s.rng.shuffle(s.draw)
    s.areas = [[None] * CELLS for _ in range(players)]
    s.starter = s.rng.below(players)
    s.say(
        "Two missions are open; each player draws a secret mission. "
        f"{SEAT_NAMES[s.starter]} is drawn at random to start."
    )
    _new_round(s)
    return s


# The functions run on every step read the state's fields from its __dict__ (``f``): pydantic
# models define __getattr__, which puts every attribute read on a slow path.


def to_act(s: CampingLifeState) -> list[int]:
    f = s.__dict__
    phase = f["phase"]
    if phase == "bid_card" or phase == "bid_table":
        return [f["bidder"]]
    if phase == "pick":
        return [f["picker"]]
    if phase == "place":
        return [f["placements"][0].seat]
    return []


def _acts(f: dict[str, Any], seat: int) -> bool:
    """``seat in to_act(s)`` from the fields of ``s``, without building the list."""
    phase: str = f["phase"]
    if phase == "bid_card" or phase == "bid_table":
        bidder: int = f["bidder"]
        return seat == bidder
    if phase == "place":
        placer: int = f["placements"][0].seat
        return seat == placer
    if phase == "pick":
        picker: int = f["picker"]
        return seat == picker
    return False


def placing(s: CampingLifeState) -> list[int]:
    """The won cards the seat now placing still has to place, in the order they were won."""
    placements = s.placements
    seat = placements[0].seat
    return [p.card for p in placements if p.seat == seat]


def legal_moves(s: CampingLifeState, seat: int) -> list[Move]:
    f = s.__dict__
    if not _acts(f, seat):
        return []
    phase = f["phase"]
    if phase == "bid_card":
        held = _held(f, seat)
        moves: list[Move] = []
        for card in f["row"]:
            moves += _bids(card, held)
        return moves
    if phase == "bid_table":
        return [BID_TABLE[coin] for coin in _held(f, seat)]
    if phase == "pick":
        return [PICK[card] for card in f["next_round"]]
    cells = play_area.targets(f["areas"][seat])
    return [PLACE[card, r, c] for card in dict.fromkeys(placing(s)) for r, c in cells]


def _held(f: dict[str, Any], seat: int) -> tuple[int, ...]:
    """The values of the coins in ``seat``'s hand, each once, lowest first."""
    return tuple(sorted(set(f["coins"][seat])))


@lru_cache(maxsize=None)
def _bids(card: int, held: tuple[int, ...]) -> tuple[BidCard, ...]:
    return tuple(BID_CARD[card, coin] for coin in held)


# Moves are frozen values: every legal move is built once here, not at every step.
BID_CARD = {
    (card, coin): BidCard(card=card, coin=coin) for card in TERRAIN_IDS for coin in set(COINS)
}
BID_TABLE = {coin: BidTable(coin=coin) for coin in set(COINS)}
PICK = {card: Pick(card=card) for card in TERRAIN_IDS}
PLACE = {
    (card, r, c): Place(card=card, row=r, col=c)
    for card in TERRAIN_IDS
    for r in range(-1, ROWS + 1)
    for c in range(-1, COLS + 1)
}


def apply(s: CampingLifeState, seat: int, move: Move) -> CampingLifeState:
    f = s.__dict__
    if not _acts(f, seat):
        raise IllegalMove("It is not your turn.")
    phase = f["phase"]
    if not isinstance(move, _EXPECTED[phase]):
        raise IllegalMove(f"Now is not the time for {move.type}: {_prompt(phase)}")
    s = s.successor()
    _MOVES[phase](s, seat, move)
    if s.phase == "place":
        _advance(s)
    return s


def _prompt(phase: str) -> str:
    return {
        "bid_card": "put a coin on a card of the row.",
        "bid_table": "put a coin on the table.",
        "pick": "pick a next-round card.",
        "place": "place a card you won.",
        "over": "the game is over.",
    }[phase]


def _replaced(items: list[T], at: int, value: T) -> list[T]:
    """``items`` with ``value`` at ``at``, as a new list: a move never changes a list of the
    state in place, as the state before it shares them (``CampingLifeState.successor``)."""
    items = items.copy()
    items[at] = value
    return items


def _without(f: dict[str, Any], seat: int, coin: int) -> list[list[int]]:
    """The coins in hand, from the fields of a state, once ``seat`` has put down ``coin``."""
    coins = f["coins"]
    held = coins[seat]
    if coin not in held:
        raise IllegalMove(f"You have no coin of value {coin} left this round.")
    held = held.copy()
    held.remove(coin)
    return _replaced(coins, seat, held)


def _bid_card(s: CampingLifeState, seat: int, move: BidCard) -> None:
    f = s.__dict__
    card, coin = move.card, move.coin
    if card not in f["row"]:
        raise IllegalMove("That card is not in this round's row.")
    s.update(
        coins=_without(f, seat, coin),
        card_bids=[*f["card_bids"], _bid(seat, card, coin)],
        phase="bid_table",
    )
    s.say(f"{SEAT_NAMES[seat]} puts a coin on the {CARDS[card].name}.", seat)


@lru_cache(maxsize=None)
def _bid(seat: int, card: int, coin: int) -> Bid:
    """Bids are frozen values: each is built once, like the moves."""
    return Bid(seat=seat, card=card, coin=coin)


def _bid_table(s: CampingLifeState, seat: int, move: BidTable) -> None:
    f = s.__dict__
    coin = move.coin
    coins = _without(f, seat, coin)
    hidden = _replaced(f["hidden_table"], seat, coin)
    s.say(f"{SEAT_NAMES[seat]} puts a coin on the table.", seat)
    starter = f["starter"]
    if seat == starter:
        s.update(coins=coins, hidden_table=hidden, bidder=1 - seat, phase="bid_card")
        return
    table = [[*t, h] for t, h in zip(f["table_coins"], hidden)]
    s.update(coins=coins, table_coins=table, hidden_table=[None] * f["players"])
    s.say(
        "Table coins turned over: "
        + ", ".join(f"{SEAT_NAMES[p]} {t[-1]}" for p, t in enumerate(table))
        + "."
    )
    if f["turn"] < TURNS:
        s.update(turn=f["turn"] + 1, bidder=starter, phase="bid_card")
    else:
        _end_bidding(s)


def _end_bidding(s: CampingLifeState) -> None:
    totals = [sum(t) for t in s.table_coins]
    text = "Table totals: " + ", ".join(f"{SEAT_NAMES[p]} {totals[p]}" for p in range(s.players))
    if totals[0] == totals[1]:
        s.say(text + ". A tie: nobody picks, the next-round cards are discarded.")
        s.discard = s.discard + s.next_round
        s.next_round = []
        reveal(s)
        return
    if not s.next_round:
        s.say(text + ". There are no next-round cards left to pick.")
        reveal(s)
        return
    s.picker = 0 if totals[0] > totals[1] else 1
    s.say(text + f". {SEAT_NAMES[s.picker]} picks a next-round card.")
    s.phase = "pick"


def _pick(s: CampingLifeState, seat: int, move: Pick) -> None:
    if move.card not in s.next_round:
        raise IllegalMove("That card is not one of the next-round cards.")
    s.next_round = [c for c in s.next_round if c != move.card]
    s.picked = move.card
    s.say(f"{SEAT_NAMES[seat]} picks the {CARDS[move.card].name}.", seat)
    s.placements = [placement(seat, move.card)]
    s.phase = "place"


def _place(s: CampingLifeState, seat: int, move: Place) -> None:
    f = s.__dict__
    card, row, col = move.card, move.row, move.col
    cards = placing(s)
    if card not in cards:
        if len(set(cards)) == 1:
            raise IllegalMove(f"You must place the {CARDS[cards[0]].name} now.")
        raise IllegalMove(
            "You must place one of the cards you won: "
            + ", ".join(CARDS[c].name for c in dict.fromkeys(cards))
            + "."
        )
    area = f["areas"][seat]
    if not (-1 <= row <= ROWS and -1 <= col <= COLS):
        raise IllegalMove("Your play area is 4 cards wide and 3 high.")
    inside = 0 <= row < ROWS and 0 <= col < COLS
    if inside and area[row * COLS + col] is not None:
        raise IllegalMove("There is already a card there.")
    if (row, col) not in play_area.targets(area):
        if any(c is not None for c in area) and not _touches(area, row, col):
            raise IllegalMove("A card must touch a card of your play area, side by side.")
        raise IllegalMove("Your play area is 4 cards wide and 3 high.")
    areas = _replaced(f["areas"], seat, play_area.place(area, row, col, card))
    # The first of this card's placements for the seat: list.remove with a Placement, without
    # building one and comparing models.
    placements = f["placements"]
    for i, p in enumerate(placements):
        if p.seat == seat and p.card == card:
            placements = placements[:i] + placements[i + 1 :]
            break
    s.update(areas=areas, placements=placements)
    settle(s, card, placed=True)
    s.say(f"{SEAT_NAMES[seat]} places the {CARDS[card].name} {where(row, col)}.", seat)


_EXPECTED = {"bid_card": BidCard, "bid_table": BidTable, "pick": Pick, "place": Place}
_MOVES = {"bid_card": _bid_card, "bid_table": _bid_table, "pick": _pick, "place": _place}


def _touches(area: list[int | None], row: int, col: int) -> bool:
    return any((row + dr, col + dc) in set(play_area.occupied(area)) for dr, dc in play_area.STEPS)


def _advance(s: CampingLifeState) -> None:
    """Run everything that needs no decision: full areas, the turn-over, the next round."""
    f = s.__dict__
    while f["phase"] == "place":
        while f["placements"] and None not in f["areas"][f["placements"][0].seat]:
            lost = f["placements"][0]
            s.update(placements=f["placements"][1:], discard=[*f["discard"], lost.card])
            settle(s, lost.card, placed=False)
            s.say(
                f"{SEAT_NAMES[lost.seat]}'s play area is full: the "
                f"{CARDS[lost.card].name} is discarded."
            )
        if f["placements"]:
            return
        if not f["revealed"]:
            reveal(s)
        else:
            _end_round(s)


def _end_round(s: CampingLifeState) -> None:
    if any(None not in area for area in s.areas):
        _end_game(s, "A play area is complete.")
        return
    if not (s.next_round or s.draw):
        _end_game(s, "No cards are left to bid on.")
        return
    if s.picker is not None:
        s.starter = s.picker
    s.round += 1
    _new_round(s)


def _new_round(s: CampingLifeState) -> None:
    f = s.__dict__
    row = f["next_round"].copy()
    next_round: list[int] = []
    draw = f["draw"].copy()
    while len(row) < ROW_SIZE and draw:
        row.append(draw.pop())
    while len(next_round) < NEXT_ROUND_SIZE and draw:
        next_round.append(draw.pop())
    seats = range(f["players"])
    s.update(
        row=row,
        next_round=next_round,
        draw=draw,
        turn=1,
        bidder=f["starter"],
        picker=None,
        picked=None,
        revealed=False,
        coins=[list(COINS) for _ in seats],
        table_coins=[[] for _ in seats],
        hidden_table=[None for _ in seats],
        card_bids=[],
        placements=[],
        phase="bid_card",
    )
    s.say(f"Round {f['round']}: {SEAT_NAMES[f['starter']]} starts.")


def _end_game(s: CampingLifeState, why: str) -> None:
    s.phase = "over"
    s.coins = [[] for _ in range(s.players)]
    s.say(f"{why} The game is over; the secret missions are revealed.")


def missions_in_play(s: CampingLifeState) -> list[int]:
    return s.open_missions + s.secret_missions


def outcome(s: CampingLifeState) -> Outcome | None:
    if s.phase != "over":
        return None
    areas = [area_of(a) for a in s.areas]
    parts = breakdown(areas, [CARDS[m] for m in missions_in_play(s)])
    scores = [p["total"] for p in parts]
    placed = [sum(1 for c in a if c is not None) for a in s.areas]
    best = max(zip(scores, placed))
    winners = [p for p in range(s.players) if (scores[p], placed[p]) == best]
    return Outcome(
        scores=scores,
        winners=winners,
        details={
            "breakdown": {p: parts[p] for p in range(s.players)},
            "cards_in_area": placed,
            "secret_missions": [CARDS[m].to_json() for m in s.secret_missions],
        },
    )

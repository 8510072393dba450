"""Setting up Let's Take a Hike: five items dealt to each player, packed once they fit."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from engine.core import Rng
from engine.hike import backpack as bpk
from engine.hike.cards import CARDS, DECK_SIZE
from engine.hike.deck import HAND_SIZE, PLAYERS, card_with_miles, one_per_item, shuffle
from engine.hike.state import HikeState


class Options(BaseModel):
    """Let's Take a Hike has no table options."""

    model_config = ConfigDict(extra="forbid")


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
    subsets = [[c for i, c in enumerate(hand) if mask >> i & 1] for mask in range(1 << len(hand))]
    fitting = [k for k in subsets if bpk.fits(k)]
    kept_sets = [k for k in fitting if not any(c not in k and bpk.fits([*k, c]) for c in hand)]
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
        pack_dealt(state, seat)
    if not any(state.dealt):
        start_play(state)
    return state


def pack_dealt(s: HikeState, seat: int) -> None:
    """Pack the seat's dealt items once they fit; discard for it while only one item can go."""
    while True:
        hand = s.dealt[seat]
        choices = one_per_item(setup_discards(hand))
        if not choices:
            packed = bpk.arrange(hand)
            assert packed is not None  # no discard to choose: they fit
            s.backpacks[seat] = packed
            s.dealt[seat] = []
            return
        if len(choices) > 1:
            return
        discard_dealt(s, seat, choices[0])


def discard_dealt(s: HikeState, seat: int, card: int) -> None:
    s.dealt[seat] = [c for c in s.dealt[seat] if c != card]
    s.discard_pile.append(card)
    s.say(
        f"{PLAYERS[seat]} has no room for the {card_with_miles(CARDS[card])} and discards it.", seat
    )


def start_play(s: HikeState) -> None:
    """Every backpack is packed: the discards go back into the draw pile and play begins."""
    s.draw_pile.extend(s.discard_pile)
    s.discard_pile = []
    shuffle(s, s.draw_pile)
    s.phase = "turn"
    s.say(f"Each player packed a backpack. {PLAYERS[s.turn]} starts (drawn at random).", s.turn)

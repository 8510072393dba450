"""The end of a turn and of the game: the Skunk tie-break and the outcome."""

from __future__ import annotations

from engine.core import Outcome
from engine.hike.cards import CARDS, SKUNK
from engine.hike.deck import PLAYERS, shuffle, total_miles
from engine.hike.state import HikeState, TieBreak


def end_turn(s: HikeState) -> None:
    if not s.draw_pile:
        finish(s)
        return
    s.turn = (s.turn + 1) % s.players
    s.phase = "turn"


def finish(s: HikeState) -> None:
    s.game_over = True
    s.phase = "over"
    ranks = [(total_miles(p), len(p)) for p in s.scoring]
    best = max(ranks)
    tied = [seat for seat, r in enumerate(ranks) if r == best]
    if len(tied) > 1:
        s.tie_break = skunk_tie_break(s, tied)
    s.say("The draw pile is empty: the game is over.")


def skunk_tie_break(s: HikeState, tied: list[int]) -> TieBreak:
    """The tied players draw in turn, in an order drawn at random, from the reshuffled loose
    cards; whoever draws a Skunk loses and stops drawing, until one player is left or no
    Skunk remains."""
    order = list(tied)
    shuffle(s, order)
    s.say(
        "A tie: "
        + ", ".join(PLAYERS[p] for p in order)
        + " draw for the Skunk in that order (drawn at random)."
    )
    pile = [*s.discard_pile, *s.draw_pile]
    shuffle(s, pile)
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
    return [total_miles(p) for p in s.scoring]


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

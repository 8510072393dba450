"""60 seeded random games at 2, 3 and 4 players with random packs: every game finishes,
every card is in exactly one place at every step, a move never changes the state it was given,
and no view shows what its seat may not see (checked every few steps to keep this quick)."""

import random

import pytest

from engine.core import full_view, play
from engine.summer_camp import GAME
from engine.summer_camp.cards import PACKS
from engine.summer_camp.state import SummerCampState

from .conftest import all_cards

GAMES = 60
BLOCKS = 2
VIEW_EVERY = 37  # steps between two hidden-information checks


def hidden_changed(s: SummerCampState, viewer: int | None) -> SummerCampState:
    """The same game with everything ``viewer`` may not see changed: the order of every draw
    pile, the other players' hands (swapped with cards of their draw piles), what lies under the
    top of their discard piles, and the RNG."""
    t = s.clone()
    t.rng.state ^= 0xDEADBEEF
    for pile in t.piles:
        pile.reverse()
    for p in range(s.players):
        if p == viewer:
            t.draws[p].reverse()
            continue
        hand, draw = t.hands[p], t.draws[p]
        n = min(len(hand), len(draw))
        hand[:n], draw[:n] = draw[:n], hand[:n]
        draw.reverse()
        if len(t.discards[p]) > 2:
            t.discards[p][:-1] = t.discards[p][-2::-1]
    return t


def seen(s: SummerCampState, viewer: int | None) -> dict:
    """Everything full_view sends, the log aside (only counts of drawn cards reach it)."""
    legal = GAME.legal_moves(s, viewer) if viewer is not None else []
    return {
        "view": GAME.view(s, viewer),
        "to_act": GAME.to_act(s),
        "legal": [(m, GAME.describe(s, viewer, m)) for m in legal],
        "outcome": GAME.outcome(s),
    }


def check_views(s: SummerCampState, seed: int) -> None:
    for viewer in (*range(s.players), None):
        view = seen(s, viewer)
        assert view == seen(hidden_changed(s, viewer), viewer), (
            f"seed {seed}: the view of {viewer} shows something hidden"
        )
        for other in view["view"]["seats"]:
            assert other["discard"] is None or other["seat"] == viewer


REVEALS = ("is added to the display.", " pile onto their discard pile.")


def check_log(s: SummerCampState, nxt: SummerCampState, seat: int, move: dict, seed: int) -> None:
    """The log lines of a move are the same whatever the hidden cards were (the mover's draw
    pile, the others' hands): only cards turned face up from an activity pile are named."""
    twin = play(GAME, hidden_changed(s, seat), seat, move)

    def said(state: SummerCampState) -> list[str]:
        return [e.text for e in state.log if not e.text.endswith(REVEALS)]

    assert said(twin) == said(nxt), f"seed {seed}: the log names a hidden card"


def random_options(rng: random.Random) -> dict:
    return {"packs": rng.sample(list(PACKS), 3)}


@pytest.mark.slow
@pytest.mark.parametrize("block", range(BLOCKS))
def test_random_games_finish_and_keep_every_invariant(block):
    for seed in range(block * GAMES // BLOCKS, (block + 1) * GAMES // BLOCKS):
        rng = random.Random(seed)
        players = 2 + seed % 3
        s = GAME.setup(players, GAME.options(random_options(rng)), seed)
        cards = all_cards(s)
        assert len(cards) == len(set(cards)) == 64 + 3 * 28 - 3 * (4 - players) - 7 * (4 - players)
        steps = 0
        while GAME.outcome(s) is None:
            seat = rng.choice(GAME.to_act(s))
            legal = GAME.legal_moves(s, seat)
            assert legal, f"seed {seed}: seat {seat} must act but has no move"
            move = rng.choice(legal).model_dump()
            if steps % VIEW_EVERY == 0:
                check_views(s, seed)
                before = s.clone()
            nxt = play(GAME, s, seat, move)
            if steps % VIEW_EVERY == 0:
                assert s == before, f"seed {seed}: a move changed the state it was given"
                check_log(s, nxt, seat, move, seed)
            s = nxt
            assert all_cards(s) == cards, f"seed {seed} step {steps}: a card went astray"
            steps += 1
            assert steps < 20_000, f"seed {seed} does not finish"
        check_views(s, seed)
        final = full_view(GAME, s, 0)
        assert "rng" not in final and "seed" not in final
        assert GAME.to_act(s) == [] and all(GAME.legal_moves(s, p) == [] for p in range(players))
        outcome = GAME.outcome(s)
        assert outcome.winners and set(outcome.winners) <= set(range(players))
        rows = outcome.details["breakdown"]
        assert outcome.scores == [r["total"] for r in rows]
        assert any(sum(b["kind"] in PACKS for b in r["badges"]) == 3 for r in rows)


@pytest.mark.parametrize("seed", [0, 2**63 + 5])
def test_same_seed_and_moves_give_the_same_game(seed):
    rng = random.Random(seed)
    options = GAME.options(random_options(rng))
    s = GAME.setup(3, options, seed)
    moves = []
    while GAME.outcome(s) is None:
        seat = rng.choice(GAME.to_act(s))
        move = rng.choice(GAME.legal_moves(s, seat)).model_dump()
        moves.append((seat, move))
        s = play(GAME, s, seat, move)
    again = GAME.setup(3, options, seed)
    for seat, move in moves:
        again = play(GAME, again, seat, move)
    assert again.model_dump() == s.model_dump()
    assert GAME.load(GAME.dump(s)).model_dump() == s.model_dump()

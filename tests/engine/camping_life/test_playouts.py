"""100 seeded random games, with the invariants checked at every step."""

import random

import pytest

from engine.camping_life import GAME
from engine.camping_life.moves import BidCard, BidTable, Place
from engine.camping_life.scoring import CELLS, COLS
from engine.camping_life.state import CampingLifeState
from engine.core import IllegalMove, play

GAMES = 100
BLOCKS = 2


def all_cards(s: CampingLifeState) -> list[int]:
    return sorted(
        s.mission_pile
        + s.open_missions
        + s.secret_missions
        + s.draw
        + s.row
        + s.next_round
        + s.discard
        + [c for area in s.areas for c in area if c is not None]
        + [p.card for p in s.placements]
    )


def refused(s: CampingLifeState, seat: int, move) -> str:
    with pytest.raises(IllegalMove) as err:
        play(GAME, s, seat, move)
    return err.value.reason


def check_wrong_moves(s: CampingLifeState, seat: int, legal: list) -> None:
    """A wrong seat, a coin not in hand and a cell not allowed are all refused."""
    assert refused(s, 1 - seat, legal[0]) == "It is not your turn."
    first = legal[0]
    if isinstance(first, BidCard | BidTable):
        missing = sorted(set(range(5)) - set(s.coins[seat]))
        if missing:
            wrong = first.model_copy(update={"coin": missing[0]})
            assert refused(s, seat, wrong) == (
                f"You have no coin of value {missing[0]} left this round."
            )
    if isinstance(first, Place):
        allowed = {m.row * COLS + m.col for m in legal}
        bad = [i for i in range(CELLS) if i not in allowed]
        if bad:
            wrong = first.model_copy(update={"row": bad[0] // COLS, "col": bad[0] % COLS})
            assert refused(s, seat, wrong) in (
                "There is already a card there.",
                "A card must touch a card of your play area, side by side.",
            )


@pytest.mark.slow
@pytest.mark.parametrize("block", range(BLOCKS))
def test_random_games_finish_and_keep_every_invariant(block):
    for seed in range(block * GAMES // BLOCKS, (block + 1) * GAMES // BLOCKS):
        rng = random.Random(seed)
        s = GAME.setup(2, GAME.options(None), seed)
        assert all_cards(s) == list(range(70))
        steps = 0
        while GAME.outcome(s) is None:
            (seat,) = GAME.to_act(s)
            legal = GAME.legal_moves(s, seat)
            assert legal, f"seed {seed}: seat {seat} must act but has no move"
            before = s.clone()
            check_wrong_moves(s, seat, legal)
            nxt = play(GAME, s, seat, rng.choice(legal).model_dump())
            assert s == before, f"seed {seed}: a move changed the state it was given"
            s = nxt
            assert all_cards(s) == list(range(70)), f"seed {seed} step {steps}"
            steps += 1
            assert steps < 1000
        assert GAME.to_act(s) == [] and GAME.legal_moves(s, 0) == []
        placed = [sum(c is not None for c in a) for a in s.areas]
        assert max(placed) == 12 or (not s.draw and not s.next_round)
        outcome = GAME.outcome(s)
        assert outcome.winners and set(outcome.winners) <= {0, 1}
        assert outcome.scores == [outcome.details["breakdown"][p]["total"] for p in (0, 1)]


def replay(seed: int, moves: list[tuple[int, dict]]) -> CampingLifeState:
    s = GAME.setup(2, GAME.options(None), seed)
    for seat, move in moves:
        s = play(GAME, s, seat, move)
    return s


@pytest.mark.parametrize("seed", [0, 1, 2**63 + 5])
def test_same_seed_and_moves_give_the_same_game(seed):
    rng = random.Random(seed)
    s = GAME.setup(2, GAME.options(None), seed)
    moves = []
    while GAME.outcome(s) is None:
        (seat,) = GAME.to_act(s)
        move = rng.choice(GAME.legal_moves(s, seat)).model_dump()
        moves.append((seat, move))
        s = play(GAME, s, seat, move)
    again = replay(seed, moves)
    assert again.model_dump() == s.model_dump()
    assert GAME.load(GAME.dump(s)).model_dump() == s.model_dump()
    other = GAME.setup(2, GAME.options(None), seed + 1)
    assert other.draw != GAME.setup(2, GAME.options(None), seed).draw

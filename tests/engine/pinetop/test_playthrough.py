"""A seeded game written out in full, moves and log: any change in the rules' behaviour shows up
as a diff of playthrough_seed7.txt. Three players, every module on. To accept an intended
change, rerun with PINETOP_WRITE_PLAYTHROUGH=1 and review the diff."""

import os
import random
from pathlib import Path

from engine.core import full_view, play
from engine.pinetop import GAME

GOLDEN = Path(__file__).with_name("playthrough_seed7.txt")
OPTIONS = {"friendship": True, "nature": True, "tower": True}


def playthrough() -> str:
    state = GAME.setup(3, GAME.options(OPTIONS), 7)
    rng = random.Random(7)
    lines = [e.text for e in state.log]
    while GAME.outcome(state) is None:
        seat = GAME.to_act(state)[0]
        legal = GAME.legal_moves(state, seat)
        move = GAME.bots["random" if seat == 1 else "heuristic"](
            full_view(GAME, state, seat), legal, rng
        )
        seen = len(state.log)
        state = play(GAME, state, seat, move)
        lines.append(f"> seat {seat}: {move.model_dump_json()}")
        lines.extend(e.text for e in state.log[seen:])
    out = GAME.outcome(state)
    lines.append(f"scores {out.scores} winners {out.winners} details {out.details}")
    return "\n".join(lines) + "\n"


def test_the_seeded_playthrough_is_unchanged():
    text = playthrough()
    if os.environ.get("PINETOP_WRITE_PLAYTHROUGH"):
        GOLDEN.write_text(text)
    assert text == GOLDEN.read_text()

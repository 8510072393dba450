"""Golden playthroughs: a seeded game written out in full, each move and the log lines it
made, so that any change in a game's behaviour shows up as a diff of its golden file.
To accept an intended change, rerun the test with WRITE_PLAYTHROUGH=1 and review the diff."""

from __future__ import annotations

import os
import random
from pathlib import Path

from engine.core import Game, full_view, play


def playthrough(game: Game, bots: list[str], options: dict | None = None, seed: int = 7) -> str:
    state = game.setup(len(bots), game.options(options), seed)
    rng = random.Random(seed)
    lines = [e.text for e in state.log]
    while game.outcome(state) is None:
        seat = game.to_act(state)[0]
        legal = game.legal_moves(state, seat)
        move = game.bots[bots[seat]](full_view(game, state, seat), legal, rng)
        seen = len(state.log)
        state = play(game, state, seat, move)
        lines.append(f"> seat {seat}: {move.model_dump_json()}")
        lines.extend(e.text for e in state.log[seen:])
    out = game.outcome(state)
    lines.append(f"scores {out.scores} winners {out.winners} details {out.details}")
    return "\n".join(lines) + "\n"


def assert_unchanged(golden: Path, text: str) -> None:
    if os.environ.get("WRITE_PLAYTHROUGH"):
        golden.write_text(text)
    assert text == golden.read_text()

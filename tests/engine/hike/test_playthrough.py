"""A seeded game written out in full: any change in the rules' behaviour shows up as a diff
of playthrough_seed7.txt. To accept an intended change, rerun with HIKE_WRITE_PLAYTHROUGH=1
and review the diff."""

import os
from pathlib import Path

from engine.hike import GAME
from engine.playout import play_out

GOLDEN = Path(__file__).with_name("playthrough_seed7.txt")


def playthrough() -> str:
    result = play_out(GAME, 3, 7, ["random"] * 3)
    out = GAME.outcome(result.state)
    lines = [e.text for e in result.state.log]
    lines.append(f"scores {out.scores} winners {out.winners} details {out.details}")
    return "\n".join(lines) + "\n"


def test_the_seeded_playthrough_is_unchanged():
    text = playthrough()
    if os.environ.get("HIKE_WRITE_PLAYTHROUGH"):
        GOLDEN.write_text(text)
    assert text == GOLDEN.read_text()

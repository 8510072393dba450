"""A seeded game written out in full (the log alone would hide the coins, so each move is
written too): see tests/engine/playthrough.py."""

from pathlib import Path

from engine.camping_life import GAME
from tests.engine.playthrough import assert_unchanged, playthrough


def test_the_seeded_playthrough_is_unchanged():
    text = playthrough(GAME, ["heuristic", "random"])
    assert_unchanged(Path(__file__).with_name("playthrough_seed7.txt"), text)

"""A seeded game written out in full, three random bots: see tests/engine/playthrough.py."""

from pathlib import Path

from engine.hike import GAME
from tests.engine.playthrough import assert_unchanged, playthrough


def test_the_seeded_playthrough_is_unchanged():
    text = playthrough(GAME, ["random"] * 3)
    assert_unchanged(Path(__file__).with_name("playthrough_seed7.txt"), text)

"""A seeded game written out in full, three players with every module on: see
tests/engine/playthrough.py."""

from pathlib import Path

from engine.pinetop import GAME
from tests.engine.playthrough import assert_unchanged, playthrough


def test_the_seeded_playthrough_is_unchanged():
    text = playthrough(
        GAME,
        ["heuristic", "random", "heuristic"],
        {"friendship": True, "nature": True, "tower": True},
    )
    assert_unchanged(Path(__file__).with_name("playthrough_seed7.txt"), text)

"""The log names no coin or mission some seat's view does not show (see
tests/engine/hidden_log.py)."""

from engine.camping_life import GAME
from engine.camping_life.moves import BidCard, BidTable
from tests.engine.hidden_log import assert_log_hides

from .test_view import hidden_changed


def permute(s, viewer, actor, rng):
    """``hidden_changed`` turns every coin ``viewer`` may not see into 4 minus its value."""

    def remap(move):
        if isinstance(move, BidCard | BidTable):
            return move.model_copy(update={"coin": 4 - move.coin})
        return move

    return hidden_changed(s, viewer), remap


def test_log_lines_do_not_change_when_hidden_cards_are_permuted():
    assert assert_log_hides(GAME, permute, range(4), 2) > 100

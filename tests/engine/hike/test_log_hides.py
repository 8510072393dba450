"""The log names no card some seat's view does not show (see tests/engine/hidden_log.py)."""

from engine.hike import GAME
from tests.engine.hidden_log import assert_log_hides, shuffled_among


REACH = 12  # more cards than one move turns up (its top is the end of the list)


def permute(s, viewer, actor, rng):
    """Every seat sees the same table: only the draw pile's order is hidden, and every card
    drawn is turned up for all to see; so the cards below those one move may draw are
    shuffled."""
    t = s.model_copy(deep=True)
    below = t.draw_pile[:-REACH]
    shuffled_among(rng, [below])
    t.draw_pile[:-REACH] = below
    return t, lambda move: move


def test_log_lines_do_not_change_when_hidden_cards_are_permuted():
    for players in (2, 4):
        assert assert_log_hides(GAME, permute, range(3), players, every=2) > 50

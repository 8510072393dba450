"""The log names no card some seat's view does not show (see tests/engine/hidden_log.py)."""

from engine.pinetop import GAME
from engine.pinetop.cards import SUPPLY
from tests.engine.hidden_log import assert_log_hides, shuffled_among


def permute(s, viewer, actor, rng):
    t = s.clone()
    pi = shuffled_among(rng, [t.deck, *(t.hands[p] for p in range(s.players) if p != viewer)])

    def remap(move):
        if not hasattr(move, "card"):
            return move
        kind = SUPPLY[pi.get(move.card, move.card)].kind
        card = next((c for c in t.hands[actor] if SUPPLY[c].kind == kind), move.card)
        return move.model_copy(update={"card": card})

    return t, remap


def test_log_lines_do_not_change_when_hidden_cards_are_permuted():
    for players in (2, 4):
        options = {"friendship": True, "nature": True, "tower": players == 4}
        assert assert_log_hides(GAME, permute, range(3), players, options, every=2) > 100

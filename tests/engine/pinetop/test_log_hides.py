"""The log names no card some seat's view does not show (see tests/engine/hidden_log.py)."""

from engine.pinetop import GAME
from engine.pinetop.cards import SUPPLY
from tests.engine.hidden_log import assert_log_hides


def permute(s, viewer, actor, rng):
    """The deck and the other hands, shuffled among them; a card's back is seen as it is
    drawn (a tower on it shifts nature), so cards trade places only with cards of the same
    back."""
    t = s.clone()
    zones = [t.deck, *(t.hands[p] for p in range(s.players) if p != viewer)]
    pi = {}
    for tower in (False, True):
        places = [(z, i) for z in zones for i, c in enumerate(z) if SUPPLY[c].tower == tower]
        cards = [z[i] for z, i in places]
        shuffled = list(cards)
        rng.shuffle(shuffled)
        for (z, i), c in zip(places, shuffled):
            z[i] = c
        pi.update(zip(cards, shuffled))

    def remap(move):
        if move.type != "give":  # cards paid and discarded are put down face up
            return move
        kind = SUPPLY[pi.get(move.card, move.card)].kind
        card = next((c for c in t.hands[actor] if SUPPLY[c].kind == kind), move.card)
        return move.model_copy(update={"card": card})

    return t, remap


def test_log_lines_do_not_change_when_hidden_cards_are_permuted():
    for players in (2, 4):
        options = {"friendship": True, "nature": True, "tower": players == 4}
        assert assert_log_hides(GAME, permute, range(3), players, options, every=2) > 100

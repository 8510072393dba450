"""The log names no card some seat's view does not show (see tests/engine/hidden_log.py)."""

from engine.summer_camp import GAME
from engine.summer_camp.cards import COPIES
from tests.engine.hidden_log import assert_log_hides, shuffled_among


def permute(s, viewer, actor, rng):
    """Each activity pile's order; each player's draw pile and, for the other players, their
    hand and discard pile under its top card, shuffled among them (what a player owns is
    public: the view counts its points)."""
    t = s.clone()
    for pile in t.piles:
        shuffled_among(rng, [pile])
    for p in range(t.players):
        if p == viewer:
            shuffled_among(rng, [t.draws[p]])
            continue
        under = t.discards[p][:-1]
        shuffled_among(rng, [t.hands[p], t.draws[p], under])
        t.discards[p][:-1] = under

    def remap(move):
        # Cards played, bought, discarded or trashed are put down face up; the one card a
        # move takes out of sight is Plant identification's, from under the discard pile.
        if move.type != "choose_card" or s.prompts[0].kind != "plant_identification":
            return move
        before, after = s.discards[actor][:-1], t.discards[actor][:-1]
        at = next((i for i, c in enumerate(before) if COPIES[c] == move.card), None)
        if at is None or COPIES[after[at]] == COPIES[t.discards[actor][-1]]:
            return move  # a card like the top one is taken from the top, in the open
        return move.model_copy(update={"card": COPIES[after[at]]})

    return t, remap


def test_log_lines_do_not_change_when_hidden_cards_are_permuted():
    for players in (2, 3):
        assert assert_log_hides(GAME, permute, range(3), players, every=2) > 100

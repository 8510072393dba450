import pytest

from engine.camping_life import GAME
from engine.camping_life.moves import BidCard, BidTable, Pick, Place, move_adapter
from engine.core import IllegalMove


@pytest.mark.parametrize(
    ("data", "kind"),
    [
        ({"type": "bid_card", "card": 20, "coin": 2}, BidCard),
        ({"type": "bid_table", "coin": 0}, BidTable),
        ({"type": "pick", "card": 31}, Pick),
        ({"type": "place", "card": 31, "row": 2, "col": 3}, Place),
    ],
)
def test_moves_parse_by_type_and_round_trip(data, kind):
    move = GAME.parse_move(data)
    assert isinstance(move, kind)
    assert move.model_dump() == data
    assert move_adapter.validate_json(move.model_dump_json()) == move


@pytest.mark.parametrize(
    "data",
    [
        {"type": "bid", "coin": 1},
        {"type": "bid_table"},
        {"type": "place", "card": 31, "row": 2},
        {"type": "bid_table", "coin": 1, "card": 3},
        "bid_table",
    ],
)
def test_malformed_moves_are_refused_with_a_reason(data):
    with pytest.raises(IllegalMove, match="^Not a valid move"):
        GAME.parse_move(data)


def test_labels_name_the_card_and_the_coin():
    s = GAME.setup(2, GAME.options(None), 4)
    seat = GAME.to_act(s)[0]
    labels = [GAME.describe(s, seat, m) for m in GAME.legal_moves(s, seat)]
    assert len(labels) == 4 * 5 and len(set(labels)) == 20
    assert all(label.startswith("Coin ") and " on the " in label for label in labels)
    assert labels[-1].endswith("(card 4 of the row)")

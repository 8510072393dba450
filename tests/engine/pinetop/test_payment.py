"""Which cards pay a cost: wilds, double cards, grey patches, tents, and no card paid for nothing."""

from engine.pinetop.cards import SUPPLY
from engine.pinetop.payment import can_pay, needed


def card(suits=(), wild=False, tent=None):
    return next(c.id for c in SUPPLY if c.suits == tuple(suits) and c.wild == wild
                and (tent is None or c.tent == tent))


WOOD, WATER, FOOD = card(["wood"]), card(["water"]), card(["food"])
WILD = card(wild=True)
WOOD_WATER = card(["wood", "water"])
FOOD_WILD = card(["food"], wild=True)


def test_plain_cards_and_wilds():
    assert needed(("wood", "water"), [], [WOOD, WATER, FOOD]) == 2
    assert needed(("wood", "water"), [], [WOOD, FOOD]) is None
    assert needed(("wood", "water"), [], [WOOD, WILD]) == 2
    assert needed(("wood", "any"), [], [WOOD, FOOD]) == 2


def test_a_double_card_meets_both_of_its_supplies():
    assert needed(("wood", "water"), [], [WOOD_WATER]) == 1
    assert needed(("wood", "water", "food"), [], [WOOD_WATER, FOOD_WILD]) == 2
    assert needed(("food", "rope"), [], [FOOD_WILD]) == 1  # the food half and the wild half


def test_a_paid_card_must_meet_something():
    assert needed(("wood", "water"), [WOOD_WATER], []) == 0
    assert needed(("wood",), [WOOD, WOOD_WATER], []) is None
    assert needed(("wood", "water"), [WOOD], [WOOD_WATER]) == 1


def test_grey_patches_let_any_card_stand_for_their_supply():
    assert needed(("wood", "water"), [], [FOOD, WATER], frozenset({"wood"})) == 2
    assert not can_pay(("wood", "wood"), [FOOD, WATER])
    assert can_pay(("wood", "wood"), [FOOD, WATER], 0, frozenset({"wood"}))


def test_tents_and_spare_cards_for_gifts():
    green = [card(["wood"], tent="green"), card(["food"], tent="green")]
    assert needed(("tent:green", "tent:green"), [], green) == 2
    assert needed(("tent:green", "tent:green"), [], [green[0], card(["food"], tent="blue")]) is None
    assert needed(("tent:green", "tent:green"), [], [green[0], WILD]) == 2
    assert can_pay(("tent:green", "any"), [*green, FOOD], spare=1)
    assert not can_pay(("tent:green", "tent:green"), green, spare=1)

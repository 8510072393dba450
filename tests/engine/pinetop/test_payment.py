"""Which cards pay a cost: wilds, double cards, grey patches, tents, and no card paid for nothing."""

from itertools import combinations_with_replacement

from engine.pinetop.cards import MAP_CARDS, SUPPLY
from engine.pinetop.payment import _needed, _plan, can_pay, is_tents, key, needed


def card(suits=(), wild=False, tent=None):
    return next(
        c.id
        for c in SUPPLY
        if c.suits == tuple(suits) and c.wild == wild and (tent is None or c.tent == tent)
    )


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


def _searched(reqs, paid, hand, greys):
    """``needed`` by the search over every card's slots, which double cards need: the
    reference the counted payments are held to."""
    order, useful = _plan(reqs, greys)
    tents = is_tents(reqs)
    paid_slots = sorted(useful[k] for k in key(paid, tents))
    if paid_slots and not paid_slots[0]:
        return None
    return _needed(
        order, tuple(paid_slots), tuple(s for s in sorted(useful[k] for k in key(hand, tents)) if s)
    )


def test_counted_payments_agree_with_the_search():
    """Without double cards a payment is counted, not searched: the same answers for every
    map card's cost (with rain's extra card, and less a grey supply), every tent cost, the
    grey patches' supplies, and every hand and payment of up to four cards of a few kinds."""
    kinds = [WOOD, WATER, FOOD, card(["rope"]), WILD, card(["wood"], tent="blue")]
    costs = {c.cost for c in MAP_CARDS} | {(*c.cost, "any") for c in MAP_CARDS}
    costs |= {c.cost[1:] for c in MAP_CARDS}
    costs |= {("tent:" + t, x) for t in ("green", "blue", "grey") for x in ("tent:" + t, "any")}
    checked = 0
    for reqs in sorted(costs):
        for greys in (frozenset(), frozenset({"wood"}), frozenset({"water", "food"})):
            for size in range(5):
                for cards in combinations_with_replacement(kinds, size):
                    for cut in range(min(size, 2) + 1):
                        paid, hand = list(cards[:cut]), list(cards[cut:])
                        assert needed(reqs, paid, hand, greys) == _searched(
                            reqs, paid, hand, greys
                        ), (reqs, greys, paid, hand)
                        checked += 1
    assert checked > 20_000

from collections import Counter

from engine.hike.cards import (
    BOTTOM,
    CARDS,
    DECK_SIZE,
    HAZARD,
    ITEM,
    LEFT_HAND,
    LEFT_POCKET,
    MIDDLE,
    RIGHT_HAND,
    RIGHT_POCKET,
    SPACES,
    TOP,
)


def by_name(name):
    return [c for c in CARDS if c.name == name]


def test_the_deck_has_the_rulebooks_totals():
    assert DECK_SIZE == 102
    assert [c.id for c in CARDS] == list(range(102))
    kinds = Counter(c.kind for c in CARDS)
    assert kinds == {ITEM: 90, HAZARD: 12}


def test_the_twelve_item_kinds_and_four_hazards():
    items = {c.name for c in CARDS if c.kind == ITEM}
    assert items == {
        "pans",
        "camera",
        "sleeping_bag",
        "granola_bar",
        "compass",
        "flashlight",
        "socks",
        "tent",
        "water_bottle",
        "map",
        "bear_spray",
        "walking_stick",
    }
    hazards = Counter(c.name for c in CARDS if c.kind == HAZARD)
    assert hazards == {"raccoon": 4, "skunk": 3, "blister": 3, "bear": 2}


def test_every_card_of_a_kind_is_the_same():
    for name in {c.name for c in CARDS}:
        cards = by_name(name)
        assert len({(c.title, c.miles, c.spaces) for c in cards}) == 1


def test_items_have_miles_and_a_space_hazards_neither():
    for c in CARDS:
        if c.kind == ITEM:
            assert c.miles >= 1 and c.spaces and set(c.spaces) <= set(SPACES)
        else:
            assert c.miles == 0 and c.spaces == ()


def test_what_the_rulebook_says_about_single_cards():
    tent, compass, pans = by_name("tent")[0], by_name("compass")[0], by_name("pans")[0]
    bag, water = by_name("sleeping_bag")[0], by_name("water_bottle")[0]
    bar = by_name("granola_bar")[0]
    stick = by_name("walking_stick")[0]
    assert tent.spaces == (TOP,)
    assert set(compass.spaces) == {TOP, LEFT_POCKET, RIGHT_POCKET}
    assert set(pans.spaces) == {TOP, MIDDLE}
    assert bag.spaces == (BOTTOM,) and bag.miles == 4
    assert water.miles == 2
    assert bar.miles == 1 and set(bar.spaces) == set(SPACES)
    assert set(stick.spaces) == {LEFT_HAND, RIGHT_HAND}
    assert len(by_name("granola_bar")) >= 7


def test_card_json_is_complete():
    c = by_name("compass")[0]
    assert c.to_json() == {
        "id": c.id,
        "kind": "item",
        "name": "compass",
        "title": "Compass",
        "miles": 2,
        "spaces": ["top", "left_pocket", "right_pocket"],
    }

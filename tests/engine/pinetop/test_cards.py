"""The component data keeps every total the rulebook states."""

from collections import Counter

from engine.pinetop.cards import (
    BASE_SUPPLY,
    CONDITIONS,
    DOUBLE_SUPPLY,
    EDGES,
    MAP_CARDS,
    MASTERIES,
    PATCHES,
    PATCHES_OF,
    RANKS,
    SUPPLY,
    SUITS,
    catalog,
)


def test_supply_deck_totals():
    assert len(BASE_SUPPLY) == 68 and len(DOUBLE_SUPPLY) == 10
    base = [SUPPLY[i] for i in BASE_SUPPLY]
    assert Counter(c.suits for c in base if not c.wild) == {(s,): 16 for s in SUITS}
    assert sum(c.wild for c in base) == 4
    assert all(SUPPLY[i].double for i in DOUBLE_SUPPLY)
    assert sum(SUPPLY[i].wild for i in DOUBLE_SUPPLY) == 4


def test_map_cards_show_the_patches_of_their_colour():
    assert len(MAP_CARDS) == 35
    assert Counter(m.colour for m in MAP_CARDS) == {"green": 12, "blue": 12, "grey": 11}
    for m in MAP_CARDS:
        # Each card's four edges: the four patches of its tent colour, none of another.
        assert len(m.edges) == 4 and set(m.edges) == set(PATCHES_OF[m.colour])
        assert {PATCHES[k].colour for k in m.edges} == {m.colour}
        assert all(s in SUITS for s in m.cost)
    assert len({m.name for m in MAP_CARDS}) == 35
    landing = next(m for m in MAP_CARDS if m.name == "Penelope's Landing")
    assert landing.edges[EDGES.index("west")] == "trailblazer"


def test_patches_ranks_masteries():
    # "You could win with 4 green, 4 blue, 4 Grey, and 3 advanced": four of each colour.
    assert len(PATCHES) == 12
    assert {c: len(v) for c, v in PATCHES_OF.items()} == {"green": 4, "blue": 4, "grey": 4}
    # Trailblazer lies on the green cards and is green, yet its power lasts "for the rest of
    # the game": the other green powers are used once, when gained.
    assert PATCHES["trailblazer"].colour == "green" and not PATCHES["trailblazer"].once
    assert {k for k, p in PATCHES.items() if p.once} == {"forager", "campfire", "buddy_system"}
    assert [r.name for r in RANKS] == ["Possum", "Skunk", "Woodchuck", "Raccoon", "Badger"]
    assert RANKS[1].columns == ({"green": 2}, {"blue": 2}, {"grey": 2})
    assert RANKS[1].hand_limit == 7
    assert [r.advanced for r in RANKS[2:]] == [1, 2, 3]
    assert len(MASTERIES) == 19
    assert all(len(m.patches) == 4 and set(m.patches) <= set(PATCHES) for m in MASTERIES.values())
    assert len(CONDITIONS) == 12


def test_catalog_is_json_ready_and_complete():
    c = catalog()
    assert len(c["map_cards"]) == 35 and len(c["patches"]) == 12
    assert len(c["masteries"]) == 19 and len(c["ranks"]) == 5 and len(c["supply"]) == 78

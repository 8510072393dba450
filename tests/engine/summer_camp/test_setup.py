"""Options and the table at the start: board, display, pawns, decks, hands, badges."""

from collections import Counter

import pytest

from engine.core import IllegalMove
from engine.summer_camp import GAME
from engine.summer_camp.board import PATH_BOARDS
from engine.summer_camp.cards import CARD_LIST, CARDS, COPIES

from .conftest import all_cards, keys


def test_all_260_cards_with_their_copies():
    assert len(COPIES) == 260
    per_pack = Counter(CARDS[k].pack for k in COPIES)
    assert per_pack["base"] == 64 and all(n == 28 for pack, n in per_pack.items() if pack != "base")
    assert (CARDS["dodgeball"].copies, CARDS["dodgeball"].cost, CARDS["dodgeball"].points) == (
        2,
        7,
        1,
    )
    assert [c.key for c in CARD_LIST if c.cost is None] == [
        "lights_out",
        "tire_swing",
        "boondoggle",
        "kitchen_chores",
        "new_friend",
        "tetherball",
        "nature_walk",
        "water_safety",
    ]


def test_the_default_packs_are_the_rulebooks_first_game():
    assert GAME.options(None).packs == ["cooking", "outdoors", "water_sports"]


@pytest.mark.parametrize(
    "packs, message",
    [
        (["cooking", "outdoors"], "choose exactly 3 different activity packs"),
        (["cooking", "cooking", "games"], "choose exactly 3 different activity packs"),
        (["cooking", "outdoors", "chess"], "packs.2: Input should be 'adventure'"),
        ("cooking", "packs: Input should be a valid list"),
    ],
)
def test_bad_pack_choices_are_refused_clearly(packs, message):
    with pytest.raises(IllegalMove, match=message):
        GAME.options({"packs": packs})
    with pytest.raises(IllegalMove, match="Extra inputs are not permitted"):
        GAME.options({"packs": ["cooking", "outdoors", "games"], "expansion": True})


@pytest.mark.parametrize("players", [1, 5])
def test_two_to_four_players(players):
    with pytest.raises(IllegalMove, match="2 to 4 players"):
        GAME.setup(players, GAME.options(None), 0)


@pytest.mark.parametrize(
    "players, start, badges, participation, all_star",
    [
        (2, 0, [10, 6], [6, 2], [8, 4]),
        (3, 1, [10, 8, 6], [6, 4, 2], [8, 6, 4]),
        (4, 3, [12, 10, 8, 6], [6, 4, 2], [8, 6, 4]),
    ],
)
def test_the_table_by_player_count(players, start, badges, participation, all_star):
    s = GAME.setup(players, GAME.options({"packs": ["games", "adventure", "friendship"]}), 3)
    assert [p.pack for p in s.paths] == ["games", "adventure", "friendship"]
    assert sorted(b for p in s.paths for b in p.boards) == sorted(PATH_BOARDS)
    assert s.activity_badges == [badges] * 3
    assert (s.participation, s.all_star) == (participation, all_star)
    assert s.pawns == [[start] * 3] * players
    assert s.snacks == [1] * players and s.snack_supply == 24 - players
    for pack, pile, display in zip(s.packs, s.piles, s.display):
        assert len(pile) == 22 and len(display) == 2
        assert {CARDS[COPIES[c]].pack for c in pile + display} == {pack}
    assert {k: len(v) for k, v in s.supply.items()} == {
        "smores": 14,
        "scavenger_hunt": 14,
        "free_time": 8,
    }
    hands = {(s.start_player + k) % players: n for k, n in enumerate([3, 4, 5, 6][:players])}
    for seat in range(players):
        deck = keys(s.hands[seat] + s.draws[seat])
        assert Counter(deck) == {"lights_out": 7, "tetherball": 1, "tire_swing": 1, "new_friend": 1}
        assert len(s.hands[seat]) == hands[seat]
    assert len(all_cards(s)) == 36 + 3 * 24 + players * 10
    assert s.active == s.start_player


def test_the_board_and_the_start_player_follow_the_seed():
    a = [GAME.setup(3, GAME.options(None), seed) for seed in range(40)]
    assert len({tuple(b for p in s.paths for b in p.boards) for s in a}) > 6
    assert {s.start_player for s in a} == {0, 1, 2}
    again = GAME.setup(3, GAME.options(None), 5)
    assert again.model_dump() == a[5].model_dump()


def test_bonus_icons_sit_where_the_boards_put_them():
    s = GAME.setup(2, GAME.options(None), 0)
    for path in s.paths:
        assert path.bonuses[0] is None and all(path.bonuses[b] is None for b in (6, 12, 18))
        for i, board in enumerate(path.boards):
            for pos, bonus in PATH_BOARDS[board].items():
                assert path.bonuses[6 * i + pos] == bonus

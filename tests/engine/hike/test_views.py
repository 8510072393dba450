"""What leaves the engine: views hide the draw pile and the RNG; games are reproducible."""

import json
import random
import re

import pytest

from engine.core import full_view, log_view, play
from engine.hike import GAME
from engine.hike.cards import SPACES
from engine.playout import play_out
from tests.engine.in_turn import moves_in_turn

GAMES = 40
BLOCKS = 2


CARD_ID = re.compile(r'"id": (\d+)')
INT_LIST = re.compile(r"\[(\d+(?:, \d+)+)\]")


class Secrets:
    """What no view may show, computed once per step."""

    def __init__(self, s):
        self.rng = str(s.rng.state)
        self.long = len(s.draw_pile) >= 4  # shorter runs of ids could match by chance
        self.forward = json.dumps(s.draw_pile)[1:-1]
        self.backward = json.dumps(s.draw_pile[::-1])[1:-1]
        self.cards = set(s.draw_pile)
        self.count = len(s.draw_pile)
        # A step's log entries are the same for every seat, checked by check_new_log_entries.
        self.state = s


def check_view(s, seat, secrets):
    v = full_view(GAME, secrets.state, seat)
    assert "log" not in v
    text = json.dumps(v)
    assert "rng" not in v and "seed" not in text
    assert secrets.rng not in text
    assert v["draw_pile"] == secrets.count
    if secrets.long:
        assert secrets.forward not in text
        assert secrets.backward not in INT_LIST.findall(text)
    if not s.game_over:
        assert not secrets.cards.intersection(int(i) for i in CARD_ID.findall(text))


def check_new_log_entries(s):
    """Each step's entries are checked against the draw pile of their moment."""
    text = json.dumps(log_view(s.log))
    assert str(s.rng.state) not in text and "seed" not in text
    if len(s.draw_pile) >= 2:
        assert json.dumps(s.draw_pile)[1:-1] not in text


@pytest.mark.slow
@pytest.mark.parametrize("block", range(BLOCKS))
def test_views_never_show_the_draw_pile_or_the_rng(block):
    for seed in range(block * GAMES // BLOCKS, (block + 1) * GAMES // BLOCKS):
        players = 2 + seed % 4
        s = GAME.setup(players, GAME.options({}), seed)
        rng = random.Random(seed)
        check_new_log_entries(s)
        while not s.game_over:
            secrets = Secrets(s)
            for seat in [*range(players), None]:
                check_view(s, seat, secrets)
            seat = GAME.to_act(s)[0]
            legal = GAME.legal_moves(s, seat)
            s = play(GAME, s, seat, legal[rng.randrange(len(legal))])
            check_new_log_entries(s)
        for seat in [*range(players), None]:
            check_view(s, seat, Secrets(s))


def test_the_view_shape():
    s = GAME.setup(3, GAME.options({}), 5)
    v = full_view(GAME, s, 1)
    assert v["you"] == 1 and v["to_act"] == [0] and v["legal_moves"] == []
    assert v["players"] == 3 and v["spaces"] == list(SPACES)
    assert v["phase"] == "turn" and v["turn"] == 0 and v["hike"] is None
    assert len(v["seats"]) == 3
    for p, seat in enumerate(v["seats"]):
        assert seat["seat"] == p
        assert set(seat["backpack"]) == set(SPACES)
        held = [c for c in seat["backpack"].values() if c is not None]
        assert seat["backpack_miles"] == sum(c["miles"] for c in held)
        assert seat["scored"] == [] and seat["score"] == 0 and seat["owes"] is None
    mine = full_view(GAME, s, 0)
    assert [m["label"] for m in mine["legal_moves"]] == ["Draw a card", "Take a hike"]
    assert mine["legal_moves"][0]["move"] == {"type": "draw"}
    assert (
        v["draw_pile"]
        + sum(sum(c is not None for c in seat["backpack"].values()) for seat in v["seats"])
        == 102
    )


def test_the_hike_in_the_view():
    s = GAME.setup(2, GAME.options({}), 3)
    s = play(GAME, s, 0, {"type": "hike"})
    s = play(GAME, s, 1, {"type": "join"})
    v = full_view(GAME, s, None)
    assert v["hike"]["lead"] == 0 and v["hike"]["joined"] == [0, 1]
    assert len(v["hike"]["pile"]) == 1
    assert v["hike"]["pile"][0]["id"] == s.hike.pile[0]
    assert all(seat["hiking"] for seat in v["seats"])


def test_same_seed_and_moves_give_byte_identical_states():
    def record(seed):
        dumps = []
        play_out(
            GAME,
            3,
            seed,
            ["random", "heuristic", "random"],
            on_step=lambda s: dumps.append(json.dumps(GAME.dump(s))),
        )
        return dumps

    for seed in (1, 2, 3):
        assert record(seed) == record(seed)
    assert record(1) != record(2)


def test_a_state_survives_a_json_round_trip_mid_game():
    s = GAME.setup(4, GAME.options({}), 9)
    rng = random.Random(9)
    for _ in range(60):
        seat = GAME.to_act(s)[0]
        legal = GAME.legal_moves(s, seat)
        s = play(GAME, s, seat, legal[rng.randrange(len(legal))])
        loaded = GAME.load(json.loads(json.dumps(GAME.dump(s))))
        assert loaded == s.settled()
        assert GAME.legal_moves(loaded, seat) == GAME.legal_moves(s, seat)


def test_views_share_the_entry_of_a_seat_nothing_changed_for_with_many_games_in_play():
    """A seat whose backpack, scoring pile, dealt hand, debt and hiking are as they were shows
    the very entry of the view before, however many other games moved in between (as on a busy
    server): a patch passes over it without comparing it."""
    checked = 0
    for s, before, t, after in moves_in_turn(GAME, games=300, rounds=30, viewer=0):
        for p in range(2):
            if (
                t.backpacks[p] is s.backpacks[p]
                and t.scoring[p] is s.scoring[p]
                and t.debts[p] is s.debts[p]
                and before["seats"][p]["hiking"] == after["seats"][p]["hiking"]
                and (t.dealt[p] if t.dealt else ()) is (s.dealt[p] if s.dealt else ())
            ):
                assert after["seats"][p] is before["seats"][p]
                checked += 1
    assert checked > 1000


def test_a_legal_move_shown_again_is_the_very_entry_of_the_view_before_with_many_games_in_play():
    """The same move with the same label is the same entry of ``legal_moves`` from one view to
    the next, however many other games moved in between: a patch passes over it."""
    checked = 0
    for _, before, _, after in moves_in_turn(GAME, games=300, rounds=30, viewer=0):
        for entry in after["legal_moves"]:
            again = [e for e in before["legal_moves"] if e == entry]
            if again:
                assert entry is again[0]
                checked += 1
    assert checked > 1000

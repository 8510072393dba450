from collections import Counter

from engine.camping_life.cards import CARDS, MISSION_IDS, MISSIONS, TERRAIN_IDS
from engine.camping_life.scoring import AT_LEAST, MOST


def test_seventy_cards_thirteen_missions():
    assert len(CARDS) == 70
    assert [c.id for c in CARDS] == list(range(70))
    assert len(MISSION_IDS) == 13 and len(TERRAIN_IDS) == 57
    assert sorted(MISSION_IDS + TERRAIN_IDS) == list(range(70))


def test_terrain_split():
    kinds = Counter(CARDS[i].kind for i in TERRAIN_IDS)
    assert kinds == {"road": 12, "pool": 10, "forest": 11, "tent": 10, "campfire": 7, "house": 7}
    umbrellas = Counter(CARDS[i].kind for i in TERRAIN_IDS if CARDS[i].umbrella)
    assert umbrellas == {"pool": 5, "tent": 4}
    assert [CARDS[i].kind for i in TERRAIN_IDS if CARDS[i].road] == ["forest"] * 3


def test_every_mission_has_a_scoring_rule():
    keys = [key for key, _, _ in MISSIONS]
    assert len(set(keys)) == 13
    assert set(keys) == set(MOST) | set(AT_LEAST)
    assert not set(MOST) & set(AT_LEAST)
    points = Counter(p for _, p, _ in MISSIONS)
    assert points == {2: 7, 3: 6}


def test_card_json_shapes():
    pool = next(c for c in CARDS if c.kind == "pool" and c.umbrella)
    assert pool.to_json() == {
        "id": pool.id,
        "kind": "pool",
        "name": "Swimming pool with an umbrella",
        "umbrella": True,
        "road": False,
    }
    mission = CARDS[MISSION_IDS[0]]
    assert mission.to_json() == {
        "id": mission.id,
        "kind": "mission",
        "key": "most_pools",
        "text": "Most swimming pools in your play area",
        "points": 2,
    }

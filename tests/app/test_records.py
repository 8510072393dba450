"""An ended game's record: export, replay by move, and `campground verify`."""

import json
import random

from app.cli import main as campground
from tests.app.test_games import play_as


def finished_game(live):
    ana = live.guest("Ana")
    game_id = live.start_game(ana, bots=("random",), game="camping-life")
    end = play_as(live, ana, game_id, random.Random(5), lambda s: s["view"]["outcome"] is not None)
    return ana, game_id, end


def verify(tmp_path, record, capsys) -> tuple[int, str]:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    code = campground(["verify", str(path)])
    return code, capsys.readouterr().out


def test_a_finished_game_exports_replays_and_verifies(live, tmp_path, capsys, documented):
    ana, game_id, end = finished_game(live)
    r = live.client().get(f"/api/games/{game_id}/export")
    assert r.status_code == 200
    documented(r, "GET", "/api/games/{game_id}/export")
    record = r.json()
    assert record["kind"] == "camping-life" and record["players"] == 2
    # The seed travels as text: a browser reads a JSON number as a double, and a 64-bit seed
    # would come out with other digits.
    assert isinstance(record["seed"], str) and record["seed"] == end["view"]["table"]["seed"]
    assert record["outcome"] == end["view"]["outcome"]
    assert [m["seq"] for m in record["moves"]] == list(range(1, end["version"] + 1))

    code, out = verify(tmp_path, record, capsys)
    assert code == 0 and out.startswith("VERIFIED: Fair"), out

    # A spectator's view at every step: the setup, a middle step and the end.
    for at in (0, end["version"] // 2, end["version"]):
        r = live.client().get(f"/api/games/{game_id}/replay", params={"at": at})
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["version"] == at and body["view"]["you"] is None
        assert body["view"]["legal_moves"] == []
        assert body["view"]["secret_mission"] is None
        if at < end["version"]:
            # Before the end nobody's secret mission shows, as for any spectator then.
            assert body["view"]["secret_missions"] is None and body["view"]["outcome"] is None
    assert r.json()["view"]["outcome"] == end["view"]["outcome"]
    r = live.client().get(f"/api/games/{game_id}/replay", params={"at": end["version"] + 1})
    assert r.status_code == 422


def test_a_changed_seed_move_or_outcome_fails_verification(live, tmp_path, capsys):
    _, game_id, _ = finished_game(live)
    record = live.client().get(f"/api/games/{game_id}/export").json()

    code, out = verify(tmp_path, record | {"seed": str(int(record["seed"]) + 1)}, capsys)
    assert code == 1 and "seed does not match the commitment" in out

    moves = [dict(m) for m in record["moves"]]
    moves[2] = dict(moves[2], move={"type": "pick", "card": 9999})
    code, out = verify(tmp_path, record | {"moves": moves}, capsys)
    assert code == 1 and "Move 3 by seat" in out and "not legal" in out

    outcome = dict(record["outcome"], winners=[1 - w for w in record["outcome"]["winners"]])
    code, out = verify(tmp_path, record | {"outcome": outcome}, capsys)
    assert code == 1 and "do not lead to the recorded outcome" in out

    code, out = verify(tmp_path, {"kind": "hike"}, capsys)
    assert code == 1 and "Not a game record" in out


def test_an_active_game_has_no_record_yet(live):
    ana = live.guest("Ana")
    game_id = live.start_game(ana, live.guest("Ben"))
    for path in ("export", "replay"):
        r = live.client().get(f"/api/games/{game_id}/{path}")
        assert r.status_code == 409
        assert "still being played" in r.json()["detail"]
    assert live.client().get("/api/games/nope/export").status_code == 404


def test_aborted_and_conceded_games_verify(live, tmp_path, capsys):
    ana, ben = live.guest("Ana"), live.guest("Ben")
    aborted = live.start_game(ana, ben)
    assert live.admin().post(f"/api/admin/games/{aborted}/abort").status_code == 200
    record = live.client().get(f"/api/games/{aborted}/export").json()
    code, out = verify(tmp_path, record, capsys)
    assert code == 0 and "aborted" in out

    conceded = live.start_game(ana, ben)
    assert ben.post(f"/api/games/{conceded}/concede").status_code == 200
    record = live.client().get(f"/api/games/{conceded}/export").json()
    assert record["stand_ins"] == {"1": "conceded"}
    code, out = verify(tmp_path, record, capsys)
    assert code == 0, out

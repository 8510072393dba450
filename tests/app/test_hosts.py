"""Invite links never point at a host the server was not set up for, and forwarded headers are
believed from configured proxies only."""


def test_a_forged_host_gets_no_invite_link(live):
    ana = live.guest("Ana")
    lobby = live.lobby(ana)
    assert lobby["invite_url"].startswith(live.url + "/join/")
    forged = {"Host": "evil.example"}
    r = ana.post("/api/lobbies", json={"game": "hike"}, headers=forged)
    assert r.status_code == 400 and "PUBLIC_URL" in r.json()["detail"]
    assert ana.get(f"/api/lobbies/{lobby['id']}", headers=forged).status_code == 400
    port = live.url.rsplit(":", 1)[1]
    r = ana.get(f"/api/lobbies/{lobby['id']}", headers={"Host": f"localhost:{port}"})
    assert r.json()["invite_url"].startswith(f"http://localhost:{port}/join/")


def test_allowed_hosts_are_believed(database_url, serve):
    with serve(database_url, ALLOWED_HOSTS="camp.example, other.example:9000") as live:
        ana = live.guest("Ana")
        r = ana.post("/api/lobbies", json={"game": "hike"}, headers={"Host": "camp.example"})
        assert r.json()["invite_url"].startswith("http://camp.example/join/")
        r = ana.post("/api/lobbies", json={"game": "hike"}, headers={"Host": "other.example:9000"})
        assert r.status_code == 201
        r = ana.post("/api/lobbies", json={"game": "hike"}, headers={"Host": "other.example:80"})
        assert r.status_code == 400
        # Its own address is no longer among them.
        assert ana.post("/api/lobbies", json={"game": "hike"}).status_code == 400


def test_public_url_wins_over_any_host(database_url, serve):
    with serve(database_url, PUBLIC_URL="https://camp.example") as live:
        ana = live.guest("Ana")
        r = ana.post("/api/lobbies", json={"game": "hike"}, headers={"Host": "evil.example"})
        assert r.json()["invite_url"].startswith("https://camp.example/join/")


FORWARDED = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.7"}


def test_forwarded_headers_from_an_unknown_peer_are_ignored(live):
    r = live.client().post("/api/players", json={"name": "Ana"}, headers=FORWARDED)
    assert "secure" not in r.headers["set-cookie"].lower()


def test_forwarded_headers_from_a_trusted_proxy_are_believed(database_url, serve):
    settings = {"TRUSTED_PROXIES": "127.0.0.1", "RATE_PLAYERS": "1/60"}
    with serve(database_url, **settings) as live:
        r = live.client().post("/api/players", json={"name": "Ana"}, headers=FORWARDED)
        assert "secure" in r.headers["set-cookie"].lower()
        # Limits count the client behind the proxy, not the proxy.
        elsewhere = {"X-Forwarded-For": "198.51.100.1"}
        r = live.client().post("/api/players", json={"name": "Ben"}, headers=elsewhere)
        assert r.status_code == 201
        again = live.client().post("/api/players", json={"name": "Cy"}, headers=FORWARDED)
        assert again.status_code == 429

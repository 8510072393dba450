"""What a table says around the game: the last decision, the options chosen (lobby, invite,
table), seat colours, the Rules link, Camp Pinetop's rank legend, a refused chat line kept, the
replay's names, an unknown game's page, and a first visit that no request refuses."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.end_states import COOKIE, api_client, ended_game, person, play, start, state

PHONE = 375


def open_as(new_page, server_url, client, path, width=PHONE):
    page = new_page("/static/icons/camp.svg", width=width, height=800)
    page.context.add_cookies([{"name": COOKIE, "value": client.token, "url": server_url}])
    page.goto(path)
    return page


def test_a_first_visit_and_a_rules_page_refuse_no_request(new_page):
    page = new_page("/static/icons/camp.svg")
    refused = []
    page.on(
        "response", lambda r: refused.append(f"{r.status} {r.url}") if r.status >= 400 else None
    )
    page.goto("/")
    expect(page.get_by_test_id("rules-links").get_by_role("link")).to_have_count(4)
    page.get_by_test_id("rules-links").get_by_role("link", name="Camp Pinetop").click()
    page.wait_for_url("**/rules/pinetop")
    page.wait_for_load_state("networkidle")
    assert not refused, refused


def test_the_options_show_in_the_lobby_the_invite_and_the_table(new_page, server_url):
    ana = person(server_url, "Ana")
    packs = ["arts_crafts", "games", "water_sports"]
    r = ana.post(
        "/api/lobbies",
        json={"game": "summer-camp", "seats": 2, "turn_seconds": 600, "options": {"packs": packs}},
    )
    lobby = r.json()
    expected = "Activity packs: Arts & Crafts, Games, Water Sports"
    host = open_as(new_page, server_url, ana, f"/lobbies/{lobby['id']}")
    expect(host.get_by_test_id("table-options")).to_have_text(expected)
    guest = new_page(f"/join/{lobby['invite_code']}", width=PHONE)
    expect(guest.get_by_test_id("table-options")).to_have_text(f"{expected} · 10 min per move")
    ana.post(f"/api/lobbies/{lobby['id']}/bots", json={"seat": 1, "level": "heuristic"})
    game_id = ana.post(f"/api/lobbies/{lobby['id']}/start").json()["game_id"]
    host.goto(f"/games/{game_id}")
    expect(host.get_by_test_id("table-options")).to_have_text(f"{expected} · 10 min per move")
    # The form on the home page names the packs the same way.
    expect(host.locator("body")).not_to_contain_text("Arts crafts")


def test_last_names_the_decision_seats_have_colours_and_rules_open_beside(new_page, server_url):
    ana, game_id = start(server_url, "summer-camp")
    page = open_as(new_page, server_url, ana, f"/games/{game_id}")
    strip = page.get_by_test_id("seat-strip")
    expect(strip.get_by_test_id("seat-badge").nth(0)).to_have_class("badge seat-colour-red")
    expect(strip.get_by_test_id("seat-badge").nth(1)).to_have_class("badge seat-colour-blue")
    expect(strip.locator("li").nth(0)).to_contain_text("Red")  # not the colour alone
    rules = page.get_by_test_id("rules-link")
    expect(rules).to_have_attribute("target", "_blank")
    # Several of Ana's turns, each ended: the line is the decision, not the next turn's header
    # nor the new hand drawn after it.
    for _ in range(3):
        now = play(ana, game_id, "summer-camp", moves=4)
        while now["view"]["you"] not in now["view"]["to_act"]:
            now = state(ana, game_id)
        view = now["view"]
        decided = view["last_decision"]
        expect(page.get_by_test_id("last-move")).to_have_attribute("data-index", str(decided))
        text = page.get_by_test_id("last-move").inner_text()
        assert not text.startswith("Last: Turn") and "new hand" not in text, text
        assert view["log"][decided]["seat"] is not None
    badges = page.get_by_test_id("log").get_by_test_id("seat-badge")
    assert {badges.nth(i).get_attribute("class") for i in range(badges.count())} <= {
        "badge seat-colour-red",
        "badge seat-colour-blue",
    }


def test_pinetop_explains_its_rank_track(new_page, server_url):
    ana, game_id = start(server_url, "pinetop", options={"nature": True})
    page = open_as(new_page, server_url, ana, f"/games/{game_id}")
    legend = page.get_by_test_id("rank-legend")
    expect(legend).to_contain_text("any one column")
    expect(legend).to_contain_text("advanced patches")
    expect(page.get_by_test_id("table-options")).to_have_text("Nature expansion · Untimed")


def test_a_refused_chat_line_stays_in_the_input(new_page, server_url):
    ana, game_id = start(server_url, "hike")
    page = open_as(new_page, server_url, ana, f"/games/{game_id}", width=1100)
    box = page.get_by_test_id("chat-input")
    for i in range(5):
        box.fill(f"line {i}")
        page.get_by_test_id("chat-send").click()
        expect(page.get_by_test_id("chat-line")).to_have_count(i + 1)
    box.fill("one too many")
    page.get_by_test_id("chat-send").click()
    expect(page.get_by_test_id("chat")).to_contain_text("Slow down")
    expect(box).to_have_value("one too many")


def test_the_replay_names_the_players_as_the_table_does(new_page, server_url):
    game_id, token = ended_game(server_url, "hike", "conceded")
    # The first step with a line of its own: a backpack packed in secret writes none, and who
    # packs first depends on how quickly the bot answers.
    ana = api_client(server_url, token)
    step, mover = first_captioned_step(ana, game_id)
    page = new_page("/static/icons/camp.svg", width=PHONE)
    page.context.add_cookies([{"name": COOKIE, "value": token, "url": server_url}])
    page.goto(f"/games/{game_id}")
    page.get_by_test_id("replay-open").click()
    caption = page.get_by_test_id("replay-event")
    expect(caption).to_be_visible()
    page.get_by_test_id("replay-first").click()
    for _ in range(step):
        page.get_by_test_id("replay-next").click()
    expect(page.get_by_test_id("replay-at")).to_contain_text(f"After move {step} of ")
    expect(caption).to_contain_text(mover)
    expect(caption).not_to_contain_text("Player 1")
    expect(caption).not_to_contain_text("Player 2")


def first_captioned_step(client, game_id: str) -> tuple[int, str]:
    """The first step whose move wrote a line, and the name of the seat that made it."""
    for at in range(1, 20):
        r = client.get(f"/api/games/{game_id}/replay", params={"at": at})
        assert r.status_code == 200, r.text
        view = r.json()["view"]
        if view["last_decision"] is not None:
            first = view["log_length"] - len(view["log"])
            entry = view["log"][view["last_decision"] - first]
            return at, next(s["name"] for s in view["table"]["seats"] if s["seat"] == entry["seat"])
    raise AssertionError("no step of the game wrote a line")


def test_an_unknown_game_page_has_no_chat_or_alerts(new_page):
    page = new_page("/games/no-such-game")
    expect(page.get_by_test_id("flash")).to_be_visible()
    expect(page.get_by_test_id("chat")).to_be_hidden()
    expect(page.locator(".alert-toggles")).to_be_hidden()

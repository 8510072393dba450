"""A table's life in the browser: your tables on the home page, a rename that keeps the seats,
chat shown as text, concede and rematch, and a player who leaves, runs out of time, comes back
and plays again."""

from __future__ import annotations

import random
import time

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser.end_states import COOKIE, as_player, concede, person, play_to_the_end, start

PHONE = 375
LIVE_MOVES = '[data-testid="move"]:not([disabled]):not([aria-disabled="true"])'


def set_name(page: Page, name: str) -> None:
    page.locator("#player-name-input").fill(name)
    page.locator("#player-name-input").press("Enter")
    expect(page.get_by_test_id("player-name")).to_have_text(name)


def api(page: Page, method: str, path: str, body: dict | None = None) -> dict:
    """A call as this page's player (its cookie)."""
    response = page.request.fetch(path, method=method, data=body)
    assert response.ok, response.text()
    return response.json()


def two_player_game(host: Page, guest: Page) -> str:
    # Public: anyone may watch it and read its chat.
    lobby = api(host, "POST", "/api/lobbies", {"game": "hike", "seats": 2, "private": False})
    api(guest, "POST", "/api/lobbies/join", {"invite_code": lobby["invite_code"]})
    return api(host, "POST", f"/api/lobbies/{lobby['id']}/start")["game_id"]


def games_by_turn(ana: Page, ben: Page) -> tuple[str, str]:
    """Two games between Ana and Ben: one where Ana acts first, one where Ben does (the first
    player is drawn at random)."""
    found: dict[bool, str] = {}
    while len(found) < 2:
        game_id = two_player_game(ana, ben)
        view = api(ana, "GET", f"/api/games/{game_id}/state")["view"]
        found.setdefault(view["you"] in view["to_act"], game_id)
    return found[True], found[False]


def test_home_lists_your_tables_and_a_rename_keeps_them(new_page):
    ana = new_page("/", width=PHONE, height=760)
    expect(ana.get_by_test_id("no-tables")).to_be_visible()
    set_name(ana, "Ana")
    expect(ana.get_by_test_id("no-tables")).to_be_visible()
    ben = new_page("/")
    set_name(ben, "Ben")
    mine, theirs = games_by_turn(ana, ben)
    two_player_game(ana, ben)
    # Every other game ends: Ben gives up.
    for game in api(ana, "GET", "/api/players/me/games")["games"]:
        if game["game_id"] not in (mine, theirs):
            api(ben, "POST", f"/api/games/{game['game_id']}/concede")
    ana.reload()
    expect(ana.get_by_test_id("your-turn").get_by_test_id("my-game")).to_have_count(1)
    expect(ana.get_by_test_id("waiting").get_by_test_id("my-game")).to_have_count(1)
    expect(ana.get_by_test_id("results")).to_contain_text("You won")
    assert (
        ana.get_by_test_id("your-turn").get_by_test_id("my-game").get_attribute("data-game-id")
        == mine
    )
    assert (
        ana.get_by_test_id("waiting").get_by_test_id("my-game").get_attribute("data-game-id")
        == theirs
    )
    assert ana.evaluate("document.documentElement.scrollWidth") <= PHONE

    # A new name, the same player: Ben's table shows it live.
    ben.goto(f"/games/{mine}")
    expect(ben.get_by_test_id("seat-strip")).to_contain_text("Ana")
    ana.get_by_test_id("change-name").click()
    set_name(ana, "Anabel")
    expect(ben.get_by_test_id("seat-strip")).to_contain_text("Anabel")
    expect(ana.get_by_test_id("your-turn").get_by_test_id("my-game")).to_have_count(1)
    ana.get_by_test_id("your-turn").get_by_role("link").click()
    ana.wait_for_url(f"**/games/{mine}")
    expect(ana.get_by_test_id("turn")).to_have_text("Your turn")

    # Someone else at this browser starts with no tables, after a warning.
    ana.goto("/")
    ana.get_by_test_id("someone-else").click()
    expect(ana.get_by_test_id("someone-else-warning")).to_contain_text(
        "Anabel's seats stay with Anabel"
    )
    set_name(ana, "Cleo")
    expect(ana.get_by_test_id("no-tables")).to_be_visible()


def test_chat_is_shown_as_text_never_as_html(new_page):
    ana, ben = new_page("/"), new_page("/")
    set_name(ana, "Ana")
    set_name(ben, "Ben")
    game_id = two_player_game(ana, ben)
    ana.goto(f"/games/{game_id}")
    ben.goto(f"/games/{game_id}")
    spectator = new_page(f"/games/{game_id}")
    expect(spectator.get_by_test_id("chat-input")).to_be_hidden()
    text = "<script>window.pwned = 1</script><b>hi</b>"
    ana.get_by_test_id("chat-input").fill(text)
    ana.get_by_test_id("chat-send").click()
    for page in (ana, ben, spectator):
        expect(page.get_by_test_id("chat-line")).to_have_text(f"Ana {text}")
        assert page.evaluate("window.pwned") is None
        assert page.get_by_test_id("chat-lines").locator("script, b").count() == 0
    # History survives a reload.
    ben.reload()
    expect(ben.get_by_test_id("chat-line")).to_have_text(f"Ana {text}")


def test_concede_after_confirming_then_a_rematch_for_both(new_page):
    ana, ben = new_page("/"), new_page("/")
    set_name(ana, "Ana")
    set_name(ben, "Ben")
    game_id = two_player_game(ana, ben)
    ana.goto(f"/games/{game_id}")
    ben.goto(f"/games/{game_id}")
    # Dismissing the confirmation sends nothing.
    ana.once("dialog", lambda dialog: dialog.dismiss())
    ana.get_by_test_id("concede").click()
    expect(ana.get_by_test_id("concede")).to_be_enabled()
    assert ana.get_by_test_id("outcome").count() == 0
    ana.once("dialog", lambda dialog: dialog.accept())
    ana.get_by_test_id("concede").click()
    expect(ben.get_by_test_id("winner")).to_contain_text("You win!")
    expect(ben.get_by_test_id("conceded-note")).to_have_text("Ana conceded.")
    expect(ana.get_by_test_id("winner")).to_contain_text("Ben wins!")

    ben.get_by_test_id("rematch").click()
    ben.wait_for_url("**/lobbies/*")
    expect(ana.get_by_test_id("rematch-offer")).to_be_visible()
    expect(ana.get_by_test_id("rematch")).to_have_text("Join the rematch")
    ana.get_by_test_id("rematch").click()
    ana.wait_for_url(ben.url)
    for page in (ana, ben):
        expect(page.get_by_test_id("seat").nth(0)).to_contain_text("Ana")
        expect(page.get_by_test_id("seat").nth(1)).to_contain_text("Ben")
    ben.get_by_test_id("start").click()
    ben.wait_for_url("**/games/*")
    ana.wait_for_url(ben.url)


def click_a_move(page: Page, rng: random.Random) -> bool:
    """Take back an away seat, else click one of the page's legal moves (early on, prefer
    drawing): False when there was nothing to do."""
    back = page.get_by_test_id("back")
    if back.count() and back.is_visible():
        try:
            back.click(timeout=2000)
        except PlaywrightTimeout:
            return False  # redrawn under the click (the seat may be back already); look again
        return True
    moves = page.locator(LIVE_MOVES)
    labels = moves.evaluate_all("els => els.map(e => e.title || e.textContent)")
    if not labels:
        return False
    draws = [i for i, label in enumerate(labels) if label.startswith("Draw a card")]
    pick = draws[0] if draws and rng.random() < 0.6 else rng.randrange(len(labels))
    try:
        moves.nth(pick).click(timeout=2000)
    except PlaywrightTimeout:
        return False  # the table was redrawn under the click; look again
    return True


@pytest.mark.slow
def test_a_player_who_left_finds_the_table_takes_the_seat_back_and_plays_again(
    new_page, server_url
):
    ana, ben = new_page("/"), new_page("/")
    set_name(ana, "Ana")
    set_name(ben, "Ben")
    lobby = api(ana, "POST", "/api/lobbies", {"game": "hike", "seats": 2, "turn_seconds": 10})
    api(ben, "POST", "/api/lobbies/join", {"invite_code": lobby["invite_code"]})
    game_id = api(ana, "POST", f"/api/lobbies/{lobby['id']}/start")["game_id"]
    view = api(ana, "GET", f"/api/games/{game_id}/state")["view"]
    # Whoever acts first closes the tab; their clock runs out.
    leaver, stayer = (ana, ben) if view["you"] in view["to_act"] else (ben, ana)
    away_seat = 0 if leaver is ana else 1
    stayer.goto(f"/games/{game_id}")
    expect(stayer.get_by_test_id("countdown")).to_be_visible()
    context = leaver.context
    leaver.close()

    strip = stayer.get_by_test_id("seat-strip").locator("li").nth(away_seat)
    expect(strip.get_by_test_id("seat-away")).to_be_visible(timeout=30_000)
    # The bot made the absent player's move: the turn has come round.
    expect(stayer.get_by_test_id("turn")).to_have_text("Your turn", timeout=15_000)

    # Back at the site: the table is in the home page's list, and the seat comes back.
    leaver = context.new_page()
    leaver.goto("/")
    row = leaver.locator(f'[data-testid="my-game"][data-game-id="{game_id}"]')
    row.get_by_role("link").click()
    leaver.wait_for_url(f"**/games/{game_id}")
    expect(leaver.get_by_test_id("away")).to_be_visible()
    leaver.get_by_test_id("back").click()
    expect(strip.get_by_test_id("seat-away")).to_have_count(0)

    # Both play on at their tables for a few moves each; the rest of the game is played through
    # the API with the heuristic bot's choices (a whole game of clicks is test_hike's), and both
    # tables follow it to the end.
    rng = random.Random(9)
    clicks = {"leaver": 0, "stayer": 0}
    deadline = time.monotonic() + 120
    while min(clicks.values()) < 4 and not leaver.get_by_test_id("outcome").is_visible():
        assert time.monotonic() < deadline, f"the players could not play on ({clicks})"
        moved = False
        for name, page in (("leaver", leaver), ("stayer", stayer)):
            if click_a_move(page, rng):
                clicks[name] += 1
                moved = True
        if not moved:
            stayer.wait_for_timeout(50)
    play_to_the_end([as_player(page, server_url) for page in (leaver, stayer)], game_id, "hike")
    for page in (leaver, stayer):
        expect(page.get_by_test_id("outcome")).to_be_visible()
    expect(leaver.get_by_test_id("winner")).to_contain_text("win")

    # Both play again: one opens the rematch, the other joins it with one click.
    stayer.get_by_test_id("rematch").click()
    stayer.wait_for_url("**/lobbies/*")
    expect(leaver.get_by_test_id("rematch")).to_have_text("Join the rematch")
    leaver.get_by_test_id("rematch").click()
    leaver.wait_for_url(stayer.url)
    for page in (leaver, stayer):
        expect(page.get_by_test_id("seat").nth(0)).to_contain_text("Ana")
        expect(page.get_by_test_id("seat").nth(1)).to_contain_text("Ben")


def test_a_rematch_offer_ends_when_the_rematch_starts(new_page, server_url):
    """Ana's page of a finished game offers Ben's rematch, and stops offering it the moment
    it starts without her (Ben gave her kept seat to a bot): it points to the new game, which
    she may watch as the table is public."""
    ben = person(server_url, "Ben")
    ana, game_id = start(server_url, "hike", bots=0, others=(ben,), public=True)
    concede(ana, game_id)
    page = new_page("/", width=PHONE)
    page.context.add_cookies([{"name": COOKIE, "value": ana.token, "url": server_url}])
    page.goto(f"/games/{game_id}")
    expect(page.get_by_test_id("rematch")).to_have_text("Play again")
    lobby = ben.post(f"/api/games/{game_id}/rematch").json()
    expect(page.get_by_test_id("rematch-offer")).to_have_text("A rematch is waiting for you.")
    expect(page.get_by_test_id("rematch")).to_have_text("Join the rematch")
    assert (
        ben.post(
            f"/api/lobbies/{lobby['id']}/bots", json={"seat": 0, "level": "random"}
        ).status_code
        == 200
    )
    rematch = ben.post(f"/api/lobbies/{lobby['id']}/start").json()["game_id"]
    started = page.get_by_test_id("rematch-started")
    expect(started).to_contain_text("The rematch has started.")
    expect(page.get_by_test_id("rematch-offer")).to_have_count(0)
    expect(page.get_by_test_id("rematch")).to_have_count(0)
    page.reload()
    expect(started.get_by_role("link")).to_have_attribute("href", f"/games/{rematch}")
    started.get_by_role("link").click()
    page.wait_for_url(f"**/games/{rematch}")
    expect(page.get_by_test_id("watching")).to_be_visible()


def test_a_person_the_host_removed_is_told_and_offered_a_way_back(new_page, server_url):
    """Not "Sit here" (joining is refused until the host makes a new link), but what happened
    and where to go; the free seats stay offered to everyone else."""
    ana, dee, cal = (person(server_url, name) for name in ("Ana", "Dee", "Cal"))
    lobby = ana.post("/api/lobbies", json={"game": "hike", "seats": 3, "private": False}).json()
    assert (
        dee.post("/api/lobbies/join", json={"invite_code": lobby["invite_code"]}).status_code == 200
    )
    page = new_page("/", width=PHONE)
    page.context.add_cookies([{"name": COOKIE, "value": dee.token, "url": server_url}])
    page.goto(f"/lobbies/{lobby['id']}")
    expect(page.get_by_test_id("seat").nth(1)).to_contain_text("Dee")
    assert ana.delete(f"/api/lobbies/{lobby['id']}/seats/1").status_code == 200
    removed = page.get_by_test_id("removed")
    expect(removed).to_contain_text("The host removed you from this table")
    expect(page.get_by_test_id("sit-here")).to_have_count(0)
    page.reload()
    expect(removed).to_contain_text("Ask the host for a new invite link")
    expect(page.get_by_test_id("sit-here")).to_have_count(0)
    other = new_page(f"/lobbies/{lobby['id']}", width=PHONE)
    other.context.add_cookies([{"name": COOKIE, "value": cal.token, "url": server_url}])
    other.reload()
    expect(other.get_by_test_id("sit-here")).to_have_count(2)
    expect(other.get_by_test_id("removed")).to_have_count(0)
    removed.get_by_role("link").click()
    page.wait_for_url(server_url + "/")

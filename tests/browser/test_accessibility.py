"""axe-core and the outline of headings on every kind of page, and on every game's table as a
player, as a spectator and once it has ended (its replay open), each at 375 and 1280 px: no
serious or critical violation, one h1, no heading level skipped, nothing wider than a phone.
The tables are made through the API; one browser context per person opens all of theirs. And
the keyboard: after a move, focus goes on to the next control."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from engine.registry import GAMES
from tests.browser.axe import page_problems
from tests.browser.end_states import COOKIE, ended_game, person, play, start

WIDTHS = (375, 1280)
# Summer Camp's default packs are not all: the live table shows the other three.
OPTIONS = {"summer-camp": {"packs": ["adventure", "friendship", "games"]}}


def as_person(new_page, server_url, token: str | None) -> Page:
    """One page (its own context) that opens every page for the player of ``token``."""
    page = new_page("/", width=WIDTHS[0])
    if token:
        page.context.add_cookies([{"name": COOKIE, "value": token, "url": server_url}])
    return page


def problems_at_both_widths(page: Page, path: str, ready: str, then=None) -> dict[str, list[str]]:
    """Opens ``path`` at each width, waits for ``ready`` (a selector: what the page draws last)
    and runs ``then(page)``, and lists what is wrong there."""
    found = {}
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(path)
        expect(page.locator(ready).first).to_be_visible()
        if then:
            then(page)
        problems = page_problems(page)
        wide = page.evaluate("document.documentElement.scrollWidth")
        if wide > width:
            problems.append(f"the page is {wide} px wide")
        if problems:
            found[f"{path} at {width} px"] = problems
    return found


def report(found: dict[str, list[str]]) -> str:
    return "\n".join(f"{where}:\n  " + "\n  ".join(problems) for where, problems in found.items())


def open_replay(page: Page) -> None:
    """The replay drawn a step before the end: the table as it was, with its caption."""
    page.get_by_test_id("replay-open").click()
    expect(page.get_by_test_id("replay-event")).to_be_visible()
    page.get_by_test_id("replay-back").click()
    expect(page.get_by_test_id("replay-at")).to_contain_text("After move")
    expect(page.get_by_test_id("replay-table").get_by_test_id("replay-event")).to_be_visible()


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_every_table_as_player_spectator_and_ended(new_page, server_url, kind):
    # Public, so that anybody may watch it.
    ana, live = start(server_url, kind, options=OPTIONS.get(kind), public=True)
    play(ana, live, kind, moves=3)
    # Ended with a conceded seat the bots played on where the game seats three, so its labels
    # are drawn too; Camping Life is for two and is played to its end.
    ended, token = ended_game(
        server_url, kind, "finished" if GAMES[kind].max_players == 2 else "conceded-3p"
    )
    table = f'[data-testid="{kind}"]'
    player = as_person(new_page, server_url, ana.token)
    found = problems_at_both_widths(player, f"/games/{live}", table)
    found |= problems_at_both_widths(as_person(new_page, server_url, None), f"/games/{live}", table)
    player.context.add_cookies([{"name": COOKIE, "value": token, "url": server_url}])
    found |= problems_at_both_widths(player, f"/games/{ended}", table, open_replay)
    assert found == {}, report(found)


def test_every_kind_of_page(new_page, server_url):
    """Home, invite, device, account, lobby (as its host, a guest, someone who may sit down,
    someone the host removed, nobody yet), profile, leaderboard, rules and "not found"."""
    ana, ben, cal, dee = (person(server_url, name) for name in ("Ana", "Ben", "Cal", "Dee"))
    r = ana.post("/api/accounts", json={"handle": "ana-axe", "password": "correct horse battery"})
    assert r.status_code == 201, r.text
    # Public, so that anybody (Cal) may find it and sit down.
    lobby = ana.post(
        "/api/lobbies", json={"game": "summer-camp", "seats": 4, "private": False}
    ).json()
    for guest in (ben, dee):
        r = guest.post("/api/lobbies/join", json={"invite_code": lobby["invite_code"]})
        assert r.status_code == 200, r.text
    r = ana.delete(f"/api/lobbies/{lobby['id']}/seats/2")  # Dee's
    assert r.status_code == 200, r.text
    at_lobby = f"/lobbies/{lobby['id']}"
    pages = {
        None: [
            ("/", '[data-testid="game-hike"]'),
            (f"/join/{lobby['invite_code']}", "#player-name-input"),
            ("/join/nosuchcode", ".error"),
            ("/device", '[data-testid="device-code-input"]'),
            ("/account", '[data-testid="sign-in-handle"]'),
            (at_lobby, "#player-name-input"),
            ("/games/nosuchgame", '[data-testid="flash"]'),
            ("/no/such/page", "main h1"),
            ("/players/ana-axe", ".profile"),
            ("/leaderboard/hike", ".leaderboard"),
            *((f"/rules/{kind}", "main h1") for kind in sorted(GAMES)),
        ],
        ana.token: [
            ("/", '[data-testid="my-lobby"]'),
            (at_lobby, '[data-testid="start"]'),
            ("/account", '[data-testid="make-device-code"]'),
        ],
        ben.token: [(at_lobby, '[data-testid="seat"]'), ("/account", '[data-testid="claim"]')],
        cal.token: [(at_lobby, '[data-testid="sit-here"]')],
        dee.token: [(at_lobby, '[data-testid="removed"]')],
    }
    found = {}
    for token, paths in pages.items():
        page = as_person(new_page, server_url, token)
        for path, ready in paths:
            found |= problems_at_both_widths(page, path, ready)
    assert found == {}, report(found)


def test_after_a_move_focus_goes_to_the_next_control(new_page):
    page = new_page("/", width=390, height=900)
    page.locator("#player-name-input").fill("Ana")
    page.locator("#player-name-input").press("Enter")
    expect(page.get_by_test_id("player-name")).to_have_text("Ana")
    page.get_by_test_id("game-camping-life").click()
    page.get_by_test_id("create-lobby").click()
    page.wait_for_url("**/lobbies/*")
    page.get_by_test_id("add-bot").click()
    page.get_by_test_id("start").click()
    page.wait_for_url("**/games/*")
    moves = page.locator('[data-testid="move"]:not([aria-disabled="true"])')
    expect(moves.first).to_be_visible()
    moves.first.focus()
    page.keyboard.press("Enter")
    # The coin played is gone; focus is on a control again (the next move, or the turn line).
    page.wait_for_function(
        "() => document.activeElement && document.activeElement !== document.body"
        " && (document.activeElement.dataset.testid === 'move'"
        " || document.activeElement.dataset.testid === 'turn')"
    )

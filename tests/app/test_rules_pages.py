"""The rules pages, served as HTML that reads without JavaScript, and the "not found" page."""

import pytest

from engine.registry import GAMES


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_every_game_has_a_rules_page_with_its_cards(live, kind):
    r = live.client().get(f"/rules/{kind}")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    page = r.text
    assert (
        "<h1>" in page and f"<title>Rules of {GAMES[kind].title.replace(chr(39), '&#x27;')}" in page
    )
    for heading in ("Setup", "The end"):
        assert f"<h2>{heading}" in page
    assert page.count('class="rule-card"') >= 4, "the game's cards are drawn on its page"
    assert "<script" not in page
    for other in GAMES.values():
        assert f'href="/rules/{other.id}"' in page


def test_the_rules_pages_name_what_the_cards_do(live):
    hike = live.client().get("/rules/hike").text
    assert "Bear Spray" in hike and "Discard your card with the most miles" in hike
    camping = live.client().get("/rules/camping-life").text
    assert "Most houses on the 4 corners of your play area" in camping


def test_an_unknown_page_is_the_sites_own_not_found_page(live):
    html = {"Accept": "text/html,application/xhtml+xml"}
    r = live.client().get("/no/such/page", headers=html)
    assert r.status_code == 404 and "<h1>Nothing here</h1>" in r.text
    assert 'href="/"' in r.text
    r = live.client().get("/rules/chess", headers=html)
    assert r.status_code == 404 and "Nothing here" in r.text
    # The API and scripts still get JSON.
    r = live.client().get("/api/nothing-here", headers=html)
    assert r.status_code == 404 and r.json() == {"detail": "Not Found"}
    r = live.client().get("/no/such/page")
    assert r.status_code == 404 and r.json() == {"detail": "Not Found"}

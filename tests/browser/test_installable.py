"""The site as an app on a phone: a manifest a browser can install from, icons that load at the
sizes it names, a service worker over every page that keeps the shell (so the app opens
offline), and the app's badge counting the tables where it is your turn."""

from __future__ import annotations

import json

from playwright.sync_api import expect

from app.config import project_path
from app.static_files import version

from tests.browser.end_states import COOKIE, person
from tests.browser.test_speeds import table_at_my_turn

STATIC = project_path("static")

# The Badging API, recorded: Chromium without an installed app has it but shows nothing.
BADGE_RECORDER = """
window.__badges = [];
navigator.setAppBadge = (count) => { window.__badges.push(count); return Promise.resolve(); };
navigator.clearAppBadge = () => { window.__badges.push(0); return Promise.resolve(); };
"""


def test_the_manifest_parses_and_its_icons_load_at_their_sizes(new_page, server_url):
    page = new_page("/")
    href = page.locator('link[rel="manifest"]').get_attribute("href")
    answer = page.request.get(href)
    assert answer.ok and answer.headers["content-type"].startswith("application/manifest+json")
    manifest = json.loads(answer.text())
    assert (manifest["name"], manifest["start_url"], manifest["display"]) == (
        "Campground",
        "/",
        "standalone",
    )
    sizes = {(icon["sizes"], icon["purpose"]) for icon in manifest["icons"]}
    # What Chromium asks of an installable app: 192 and 512 pixel icons; a maskable one too.
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    for icon in manifest["icons"]:
        loaded = page.evaluate(
            """src => new Promise((done, failed) => {
            const img = new Image();
            img.onload = () => done([img.naturalWidth, img.naturalHeight]);
            img.onerror = () => failed(new Error("no image at " + src));
            img.src = src;
        })""",
            icon["src"],
        )
        if icon["sizes"] != "any":
            assert "x".join(map(str, loaded)) == icon["sizes"], icon["src"]
    theme = page.locator('meta[name="theme-color"]').get_attribute("content")
    assert theme == manifest["theme_color"]


def test_the_service_worker_covers_every_page_and_keeps_the_shell_for_offline(browser, server_url):
    # A context of its own: offline, the page's calls fail, as they should, in the console.
    context = browser.new_context(base_url=server_url)
    try:
        page = context.new_page()
        page.goto("/")
        scope = page.evaluate("navigator.serviceWorker.ready.then(r => r.scope)")
        assert scope == f"{server_url}/"
        page.reload()
        assert (
            page.evaluate("navigator.serviceWorker.controller.scriptURL")
            == f"{server_url}/sw.js?v={version(STATIC)}"
        )
        expect(page.get_by_test_id("play-now-card")).to_be_visible()
        # The API is never kept: a table's state is always the server's.
        kept = page.evaluate("""caches.keys().then(async (names) => {
            const urls = [];
            for (const name of names) {
                for (const r of await (await caches.open(name)).keys()) urls.push(new URL(r.url).pathname);
            }
            return urls;
        })""")
        assert "/" in kept and f"/static/v/{version(STATIC)}/js/home.js" in kept
        assert not [url for url in kept if url.startswith("/api/")]
        context.set_offline(True)
        page.goto("/lobbies/anything")
        # The shell opens and draws the page; what it asks the server for then fails.
        expect(page.locator("header.site .brand")).to_have_text("Campground")
        expect(page.locator("#app")).not_to_be_empty()
    finally:
        context.close()


def test_the_badge_counts_the_tables_where_it_is_your_turn(new_page, server_url):
    ana = person(server_url, "Ana")
    games = [table_at_my_turn(server_url, ana, speed) for speed in ("1d", "3d")]
    page = new_page("/static/icons/camp.svg")
    page.add_init_script(BADGE_RECORDER)
    page.context.add_cookies([{"name": COOKIE, "value": ana.token, "url": server_url}])
    page.goto("/")
    page.wait_for_function("() => window.__badges.at(-1) === 2")
    ana.post(f"/api/games/{games[0]}/concede")
    # "Your tables" is asked again every few seconds; the badge follows.
    page.wait_for_function("() => window.__badges.at(-1) === 1")
    page.goto(f"/games/{games[1]}")
    page.wait_for_function("() => window.__badges.at(-1) === 1")
    ana.post(f"/api/games/{games[1]}/concede")
    page.goto("/")
    page.wait_for_function("() => window.__badges.at(-1) === 0")

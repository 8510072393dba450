"""Notices in a real Chromium: the /notices page registers the service worker; a push the
browser receives (DevTools' ``ServiceWorker.deliverPushMessage``, as a push service's would
arrive) is shown as a notice, and a click on it takes the page to the table. Screenshots of
the page at 375 and 1280 px go to the test's own folder."""

from __future__ import annotations

import json

from playwright.sync_api import expect

from tests.browser.end_states import as_player

NOTICES = (
    "navigator.serviceWorker.ready.then((r) => r.getNotifications()).then((ns) => "
    "ns.map((n) => ({title: n.title, body: n.body, url: n.data.url})))"
)


def registration_id(cdp, scope: str, page) -> str:
    found: dict[str, str] = {}
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda event: found.update(
            {
                r["scopeURL"]: r["registrationId"]
                for r in event["registrations"]
                if not r["isDeleted"]
            }
        ),
    )
    cdp.send("ServiceWorker.enable")
    for _ in range(300):
        if scope in found:
            return found[scope]
        page.wait_for_timeout(50)
    raise AssertionError(f"no service worker registered for {scope}: {found}")


def test_a_push_is_shown_and_its_click_opens_the_table(new_page, server_url, tmp_path):
    page = new_page("/")
    page.context.grant_permissions(["notifications"], origin=server_url)
    page.locator("#player-name-input").fill("Ana")
    page.locator("#player-name-input").press("Enter")
    expect(page.get_by_test_id("player-name")).to_have_text("Ana")
    ana = as_player(page, server_url)
    lobby = ana.post("/api/lobbies", json={"game": "hike", "seats": 2}).json()
    ana.post(f"/api/lobbies/{lobby['id']}/bots", json={"seat": 1, "level": "random"})
    game_id = ana.post(f"/api/lobbies/{lobby['id']}/start").json()["game_id"]

    page.locator("a.site-notices").click()
    page.wait_for_url("**/notices")
    expect(page.get_by_test_id("push-save")).to_have_text("Tell this device")
    expect(page.get_by_test_id("push-turn")).to_be_checked()
    expect(page.get_by_test_id("mail-card")).to_contain_text("This server sends no mail.")
    for width in (375, 1280):
        page.set_viewport_size({"width": width, "height": 900})
        page.screenshot(path=tmp_path / f"notices-{width}.png", full_page=True)

    cdp = page.context.new_cdp_session(page)
    registration = registration_id(cdp, f"{server_url}/", page)
    payload = {
        "title": "Your turn at Let's Take a Hike",
        "body": "It is your move.",
        "url": f"/games/{game_id}",
        "tag": f"{game_id}:turn",
    }
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {
            "origin": server_url,
            "registrationId": registration,
            "data": json.dumps(payload),
        },
    )
    shown = None
    for _ in range(300):
        shown = page.evaluate(NOTICES)
        if shown:
            break
        page.wait_for_timeout(50)
    assert shown == [
        {"title": payload["title"], "body": payload["body"], "url": f"/games/{game_id}"}
    ]

    # The browser's click on the notice, as the worker receives it.
    worker = page.context.service_workers[0]
    worker.evaluate("""async () => {
        const [notice] = await self.registration.getNotifications();
        self.dispatchEvent(new NotificationEvent("notificationclick", {notification: notice}));
    }""")
    page.wait_for_url(f"**/games/{game_id}")
    assert page.evaluate(NOTICES) == []

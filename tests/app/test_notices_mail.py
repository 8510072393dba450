"""Mail notices, end to end: a real server mails an SMTP server in the test (``aiosmtpd``)."""

from __future__ import annotations

import logging
import re
from urllib.parse import urlsplit

import pytest

from app import logs
from app.config import Settings
from tests.app.conftest import running, settings_for
from tests.app.notice_parts import MailServer, parts, wait_until
from tests.app.notice_play import acting, play_turn, turn_based_table, waiting

PUBLIC = "https://camp.example"


@pytest.fixture(scope="module")
def smtp(database_url):
    server = MailServer()
    yield server
    server.close()


@pytest.fixture(scope="module")
def live(database_url, smtp):
    settings = settings_for(
        database_url,
        SMTP_URL=smtp.url,
        PUBLIC_URL=PUBLIC,
        NOTICE_POLL=0.05,
        NOTICE_RETRY=0.2,
        NOTICE_SCAN_EVERY=0.2,
    )
    with running(settings) as server:
        yield server


def link(msg, label: str) -> str:
    text, _ = parts(msg)
    return re.search(rf"{label}: (\S+)", text).group(1)


def path_of(url: str) -> str:
    assert url.startswith(PUBLIC + "/"), url
    parsed = urlsplit(url)
    return f"{parsed.path}?{parsed.query}" if parsed.query else parsed.path


def confirmed(live, smtp, client, address: str, digest: bool = False) -> None:
    r = client.put("/api/notices/mail", json={"address": address, "digest": digest})
    assert r.status_code == 202, r.text
    msg = wait_until(lambda: smtp.to(address), "the confirmation mail")[-1]
    r = live.client().get(path_of(link(msg, "Confirm the address")))
    assert r.status_code == 200 and "Address confirmed" in r.text


def test_an_address_is_confirmed_by_its_signed_link_once(live, smtp, sql):
    ana = live.guest("Ana")
    r = ana.put("/api/notices/mail", json={"address": "ana@camp.example"})
    assert r.status_code == 202
    assert r.json() == {"enabled": True, "has_address": True, "confirmed": False, "digest": False}
    (msg,) = wait_until(lambda: smtp.to("ana@camp.example"), "the confirmation mail")
    assert msg["To"] == "ana@camp.example"
    assert msg["Subject"] == "Confirm your address for Campground"
    unsubscribe = msg["List-Unsubscribe"]
    assert unsubscribe.startswith(f"<{PUBLIC}/api/notices/mail/unsubscribe?token=")
    assert msg["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    text, html = parts(msg)
    confirm = link(msg, "Confirm the address")
    assert confirm in text and confirm.replace("&", "&amp;") in html
    forged = path_of(confirm)[:-3] + "abc"
    assert live.client().get(forged).status_code == 400
    assert ana.get("/api/notices").json()["mail"]["confirmed"] is False
    r = live.client().get(path_of(confirm))
    assert r.status_code == 200
    assert ana.get("/api/notices").json()["mail"]["confirmed"] is True
    assert live.client().get(path_of(confirm)).status_code == 410


@pytest.mark.parametrize(
    "address",
    [
        "ana",
        "ana@",
        "@camp.example",
        "ana@camp",
        "a b@c.de",
        "x" * 250 + "@camp.example",
        "<ana@camp.example>",
    ],
)
def test_an_address_that_is_not_one_is_refused_and_nothing_stored(live, sql, address):
    ana = live.guest("Ana")
    r = ana.put("/api/notices/mail", json={"address": address})
    assert r.status_code == 422
    assert sql("select player_id from mail_addresses where player_id = :p", p=ana.id) == []


def test_your_turn_is_mailed_at_a_turn_based_table_at_most_once_per_few_hours(live, smtp, sql):
    game_id, ana, ben = table(live)
    confirmed(live, smtp, ben, "ben@camp.example")
    play_turn(live, ana, game_id)
    mails = wait_until(lambda: smtp.to("ben@camp.example")[1:], "Ben's turn mail")
    assert len(mails) == 1
    msg = mails[0]
    assert msg["Subject"] == "Your turn at Let's Take a Hike"
    assert link(msg, "Open the table") == f"{PUBLIC}/games/{game_id}"
    assert msg["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    _, html = parts(msg)
    assert f'href="{PUBLIC}/games/{game_id}"' in html
    # Two more of Ben's turns within the hours: no more mail about this table.
    play_turn(live, ben, game_id)
    play_turn(live, ana, game_id)
    wait_until(
        lambda: not sql("select id from notices where player_id = :p", p=ben.id),
        "Ben's later notices handled",
    )
    assert len(smtp.to("ben@camp.example")) == 2
    assert sql("select game_id from mails_sent where player_id = :p", p=ben.id) == [(game_id,)]


def test_a_real_time_table_mails_nothing(live, smtp, sql):
    game_id, ana, ben = table(live, turn_seconds=120)
    confirmed(live, smtp, ben, "ben.fast@camp.example")
    play_turn(live, ana, game_id)
    wait_until(
        lambda: not sql("select id from notices where player_id = :p", p=ben.id),
        "Ben's notice handled",
    )
    assert len(smtp.to("ben.fast@camp.example")) == 1  # the confirmation only


def test_the_digest_lists_the_tables_where_it_is_your_turn(live, smtp):
    cat, dan = live.guest("Cat"), live.guest("Dan")
    games = [turn_based_table(live, cat, dan) for _ in range(2)]
    for game_id in games:
        if live.state(dan, game_id)["view"]["you"] not in acting(live, dan, game_id):
            play_turn(live, cat, game_id)
    # Due at once: the first digest comes with the confirmation, then one a day.
    confirmed(live, smtp, dan, "dan@camp.example", digest=True)
    digest = wait_until(lambda: smtp.to("dan@camp.example")[1:], "the digest")
    assert len(digest) == 1
    assert digest[0]["Subject"] == "Your move at 2 tables"
    text, _ = parts(digest[0])
    for game_id in games:
        assert f"{PUBLIC}/games/{game_id}" in text
    assert digest[0]["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


def test_one_click_unsubscribes_without_a_sign_in_and_only_its_own_address(live, smtp, sql):
    eve = live.guest("Eve")
    confirmed(live, smtp, eve, "eve.old@camp.example")
    old = path_of(smtp.to("eve.old@camp.example")[0]["List-Unsubscribe"].strip("<>"))
    confirmed(live, smtp, eve, "eve@camp.example")
    new = path_of(smtp.to("eve@camp.example")[0]["List-Unsubscribe"].strip("<>"))
    stranger = live.client()
    # The old address's link does not reach the new one.
    assert stranger.post(old, data={"List-Unsubscribe": "One-Click"}).status_code == 410
    assert sql("select player_id from mail_addresses where player_id = :p", p=eve.id)
    assert (
        stranger.post(new[:-4] + "AAAA", data={"List-Unsubscribe": "One-Click"}).status_code == 400
    )
    page = stranger.get(new)
    assert page.status_code == 200 and '<form method="post">' in page.text
    r = stranger.post(new, data={"List-Unsubscribe": "One-Click"})
    assert r.status_code == 200 and "Unsubscribed" in r.text
    assert sql("select player_id from mail_addresses where player_id = :p", p=eve.id) == []
    assert stranger.post(new, data={"List-Unsubscribe": "One-Click"}).status_code == 410


def test_an_address_is_never_in_the_api_or_the_logs(live, smtp, caplog):
    # Every line a server logging at "debug" writes (``campground serve --log-level debug``).
    caplog.set_level(logging.DEBUG)
    for name, chosen in logs.config(Settings(LOG_LEVEL="debug"))["loggers"].items():
        if "level" in chosen:
            caplog.set_level(chosen["level"], logger=name)
    fay = live.guest("Fay")
    confirmed(live, smtp, fay, "fay.secret@camp.example")
    game_id, ana, _ = table(live, fay)
    play_turn(live, ana, game_id)
    wait_until(lambda: smtp.to("fay.secret@camp.example")[1:], "Fay's turn mail")
    seen = [
        fay.get("/api/notices").text,
        ana.get(f"/api/games/{game_id}/state").text,
        live.admin().get(f"/api/admin/players/{fay.id}").text,
    ]
    assert not any("fay.secret" in page for page in seen)
    assert "fay.secret" not in caplog.text


def table(live, *players, turn_seconds=24 * 3600):
    ana, ben = (live.guest("Ana"), *players) if players else (live.guest("Ana"), live.guest("Ben"))
    game_id = turn_based_table(live, ana, ben, turn_seconds=turn_seconds)
    first, other = waiting(live, [ana, ben], game_id)
    return game_id, first, other

"""Web Push notices, end to end: a real server sends to a local push service that checks the
VAPID JWT and decrypts each payload with the device's own keys."""

from __future__ import annotations

import pytest

from tests.app.conftest import running, settings_for
from tests.app.notice_parts import PushService, wait_until
from tests.app.notice_play import (
    acting,
    play_turn,
    subscribe,
    table,
    told_only_of_the_table_not_open,
    turn_based_table,
)
from tests.app.sockets import Socket


@pytest.fixture(scope="module")
def push():
    service = PushService()
    yield service
    service.close()


@pytest.fixture(scope="module")
def live(database_url, push):
    settings = settings_for(
        database_url, PUSH_SERVICES="127.0.0.1", NOTICE_POLL=0.05, NOTICE_RETRY=0.2
    )
    with running(settings) as server:
        yield server


def say(live, client, game_id, text):
    """A chat line, sent as the page sends it (over the game socket), once it is stored."""
    socket = Socket(live, game_id, token=client.token)
    try:
        socket.send({"type": "chat", "text": text})
        assert socket.next()["type"] == "chat"
    finally:
        socket.ws.close()


def test_your_turn_reaches_the_device_encrypted_and_signed(live, push, sql):
    game_id, ana, ben = table(live)
    phone = push.device()
    assert subscribe(ben, phone)["kinds"] == ["turn", "ended", "rematch", "chat"]
    play_turn(live, ana, game_id)
    notice = wait_until(lambda: push.to(phone), "Ben's push")[0]
    assert notice["title"] == "Your turn at Let's Take a Hike"
    assert notice["url"] == f"/games/{game_id}"
    # Signed with the key the page subscribes with.
    key = ana.get("/api/notices").json()["push_key"]
    assert key in push.vapid_keys
    assert not push.refused
    wait_until(lambda: not sql("select id from notices"), "the outbox emptied")


def test_nothing_is_sent_about_a_table_the_person_has_open(live, push, sql):
    told_only_of_the_table_not_open(live, live, push, sql)


def test_a_device_is_told_only_the_kinds_it_chose(live, push):
    game_id, ana, ben = table(live)
    phone = push.device()
    subscribe(ben, phone, kinds=("chat",))
    play_turn(live, ana, game_id)
    say(live, ana, game_id, "Your move, Ben!")
    notice = wait_until(lambda: push.to(phone), "the chat push")
    assert [(n["title"], n["body"]) for n in notice] == [
        ("Chat at Let's Take a Hike", "Ana: Your move, Ben!")
    ]


def test_chat_at_a_real_time_table_is_not_sent(live, push, sql):
    ana, ben = live.guest("Ana"), live.guest("Ben")
    subscribe(ben, push.device())
    game_id = turn_based_table(live, ana, ben, turn_seconds=60)
    say(live, ana, game_id, "hi")
    assert sql("select kind from notices where game_id = :g and kind = 'chat'", g=game_id) == []


def test_a_gone_subscription_is_deleted(live, push, sql):
    game_id, ana, ben = table(live)
    phone = push.device()
    subscribe(ben, phone)
    push.answer[phone.endpoint.removeprefix(push.origin)] = 410
    play_turn(live, ana, game_id)
    wait_until(
        lambda: not sql("select id from push_subscriptions where player_id = :p", p=ben.id),
        "the subscription deleted",
    )
    assert ben.get("/api/notices/push", params={"endpoint": phone.endpoint}).status_code == 404


def test_a_failing_push_service_is_tried_again_and_sends_once(live, push, sql):
    game_id, ana, ben = table(live)
    phone = push.device()
    path = phone.endpoint.removeprefix(push.origin)
    subscribe(ben, phone)
    push.answer[path] = 503
    play_turn(live, ana, game_id)
    wait_until(
        lambda: sql("select tries from notices where player_id = :p and tries >= 2", p=ben.id),
        "two failed tries",
    )
    push.answer[path] = 201
    wait_until(lambda: push.to(phone), "the push after recovery")
    wait_until(
        lambda: not sql("select id from notices where player_id = :p", p=ben.id),
        "the notice deleted once sent",
    )
    assert len(push.to(phone)) == 1
    metrics = live.client().get("/metrics").text
    assert 'campground_notice_failures_total{channel="push"}' in metrics


def test_unsubscribing_is_one_call_and_stops_the_notices(live, push, sql):
    game_id, ana, ben = table(live)
    phone = push.device()
    subscribe(ben, phone)
    r = ben.delete("/api/notices/push", params={"endpoint": phone.endpoint})
    assert r.status_code == 200 and r.json() == {"forgotten": True}
    play_turn(live, ana, game_id)
    # Ben asked for nothing any more: the move wrote no notice at all.
    assert sql("select id from notices where player_id = :p", p=ben.id) == []


def test_the_end_and_a_rematch_are_told(live, push, sql):
    ana, ben = live.guest("Ana"), live.guest("Ben")
    phone = push.device()
    subscribe(ben, phone, kinds=("ended", "rematch"))
    game_id = turn_based_table(live, ana, ben)
    while not live.state(ana, game_id)["view"]["outcome"]:
        for client in (ana, ben):
            if live.state(client, game_id)["view"]["you"] in acting(live, client, game_id):
                play_turn(live, client, game_id)
    ended = wait_until(lambda: push.to(phone), "the end's push")
    assert ended[0]["title"] == "Let's Take a Hike has ended"
    r = ana.post(f"/api/games/{game_id}/rematch")
    assert r.status_code in (200, 201), r.text
    told = wait_until(lambda: push.to(phone)[1:], "the rematch's push")
    assert told[0]["title"] == "A rematch of Let's Take a Hike?"


def test_the_end_by_a_concession_is_told(live, push, sql):
    game_id, ana, ben = table(live)
    phone = push.device()
    subscribe(ben, phone, kinds=("ended",))
    r = ana.post(f"/api/games/{game_id}/concede")
    assert r.status_code == 200, r.text
    ended = wait_until(lambda: push.to(phone), "the concession's push")
    assert [(n["title"], n["url"]) for n in ended] == [
        ("Let's Take a Hike has ended", f"/games/{game_id}")
    ]


def test_a_game_an_admin_aborts_is_told_to_each_person(live, push):
    game_id, ana, ben = table(live)
    phones = {ana.id: push.device(), ben.id: push.device()}
    subscribe(ana, phones[ana.id], kinds=("ended",))
    subscribe(ben, phones[ben.id], kinds=("ended",))
    r = live.admin().post(f"/api/admin/games/{game_id}/abort")
    assert r.status_code == 200, r.text
    for phone in phones.values():
        told = wait_until(lambda phone=phone: push.to(phone), "the abort's push")
        assert [(n["title"], n["body"], n["url"]) for n in told] == [
            (
                "Let's Take a Hike was stopped",
                "Your game of Let's Take a Hike was aborted: nobody wins.",
                f"/games/{game_id}",
            )
        ]


@pytest.mark.parametrize(
    "change, reason",
    [
        ({"endpoint": "https://evil.example/push/1"}, "not on a push service"),
        ({"endpoint": "http://fcm.googleapis.com/x"}, "not on a push service"),
        ({"endpoint": "not a url"}, "not on a push service"),
        ({"keys": {"p256dh": "AAAA", "auth": "AAAAAAAAAAAAAAAAAAAAAA"}}, "65 bytes"),
        ({"keys": {"p256dh": None, "auth": "short"}}, None),
        ({"kinds": ["turn", "everything"]}, None),
    ],
)
def test_a_bad_subscription_is_refused_and_nothing_stored(live, push, sql, change, reason):
    ben = live.guest("Ben")
    body = push.device().subscription(["turn"])
    if "keys" in change and change["keys"]["p256dh"] is None:
        change = {"keys": {"p256dh": body["keys"]["p256dh"], "auth": "c2hvcnQ"}}
        reason = "16 bytes"
    body |= change
    r = ben.put("/api/notices/push", json=body)
    assert r.status_code == 422, r.text
    if reason:
        assert reason in r.json()["detail"]
    assert sql("select id from push_subscriptions where player_id = :p", p=ben.id) == []


def test_a_subscription_is_a_players_own(live, push):
    ben, cat = live.guest("Ben"), live.guest("Cat")
    phone = push.device()
    subscribe(ben, phone)
    assert cat.get("/api/notices/push", params={"endpoint": phone.endpoint}).status_code == 404
    assert live.client().get("/api/notices").status_code == 401


def test_the_players_a_host_starts_a_table_for_are_told(live, push):
    ana, ben = live.guest("Ana"), live.guest("Ben")
    phone = push.device()
    subscribe(ben, phone, kinds=("invite",))
    game_id = turn_based_table(live, ana, ben)
    told = wait_until(lambda: push.to(phone), "the start's push")
    assert [(n["title"], n["url"]) for n in told] == [
        ("Let's Take a Hike has started", f"/games/{game_id}")
    ]

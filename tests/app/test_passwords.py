"""Password hashing runs in a bounded pool beside the event loop: a full pool answers a sign-in
503 with Retry-After at once, instead of queueing it behind every guess before it."""

from __future__ import annotations

import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from app.services import passwords
from tests.app.accounts import PASSWORD, new_handle, signed_in


class Held:
    """The real hasher, whose checks wait until the test lets them go."""

    def __init__(self, real) -> None:
        self.real = real
        self.gate = threading.Event()

    def hash(self, password):
        return self.real.hash(password)

    def verify(self, stored, password):
        assert self.gate.wait(60)
        return self.real.verify(stored, password)


def until(condition) -> None:
    for _ in range(600):
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError("never happened")


def test_a_full_hashing_pool_answers_503_with_retry_after_and_serves_the_rest(live, monkeypatch):
    ana = signed_in(live, "Ana")
    held = Held(passwords._hasher)
    monkeypatch.setattr(passwords, "_hasher", held)
    room = passwords.HASHERS + passwords.WAITING

    def guess():
        body = {"handle": new_handle(), "password": "not the password"}
        return live.client().post("/api/sessions", json=body)

    with ThreadPoolExecutor(room) as guessing:
        try:
            guesses = [guessing.submit(guess) for _ in range(room)]
            until(lambda: passwords.pool.taken == room)
            # Tables and other calls are served meanwhile.
            assert live.client().get("/api/games").status_code == 200
            r = live.client().post(
                "/api/sessions", json={"handle": ana.handle, "password": PASSWORD}
            )
            assert r.status_code == 503 and r.headers["retry-after"] == "1"
            assert "try again" in r.json()["detail"]
        finally:
            held.gate.set()
        assert [g.result().status_code for g in guesses] == [401] * room
    r = live.client().post("/api/sessions", json={"handle": ana.handle, "password": PASSWORD})
    assert r.status_code == 201 and passwords.pool.taken == 0


def test_hashing_threads_run_below_the_event_loop():
    nice = passwords._pool.submit(
        lambda: os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    ).result()
    assert nice >= passwords.NICER

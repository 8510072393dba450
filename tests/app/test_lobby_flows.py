"""Random sequences of lobby actions against a model of the seats (Hypothesis stateful)."""

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
    run_state_machine_as_test,
)

PEOPLE = st.integers(0, 3)
LEVELS = st.sampled_from(["random", "heuristic", "genius"])


def test_lobby_flows_follow_the_model(live):
    class LobbyFlows(RuleBasedStateMachine):
        @initialize(seats=st.integers(2, 5), private=st.booleans())
        def open_lobby(self, seats, private):
            self.people = [live.guest(name) for name in ("Host", "Ben", "Cal", "Dee")]
            lobby = live.lobby(self.people[0], seats=seats, private=private)
            self.id, self.code, self.private = lobby["id"], lobby["invite_code"], private
            self.seats: list = [("player", 0)] + [None] * (seats - 1)
            self.started = self.closed = False
            # The people the host took out of a seat: they may not join again.
            self.removed: set[int] = set()

        @property
        def ended(self):
            return self.started or self.closed

        def seat_of(self, who):
            return next((i for i, s in enumerate(self.seats) if s == ("player", who)), None)

        def call(self, method, who, path, **kw):
            return self.people[who].request(method, f"/api/lobbies/{self.id}{path}", **kw)

        @rule(who=PEOPLE, by_code=st.booleans())
        def join(self, who, by_code):
            if by_code:
                r = self.people[who].post("/api/lobbies/join", json={"invite_code": self.code})
            else:
                r = self.call("POST", who, "/join")
            free = [i for i, s in enumerate(self.seats) if s is None]
            if self.seat_of(who) is not None:
                expected = 200
            elif self.private and not by_code:
                expected = 403
            elif self.ended:
                expected = 409
            elif who in self.removed:
                expected = 403
            elif not free:
                expected = 409
            else:
                expected = 200
                self.seats[free[0]] = ("player", who)
            assert r.status_code == expected, r.text
            if expected == 200:
                assert r.json()["you"] == self.seat_of(who)

        @rule(who=PEOPLE)
        def leave(self, who):
            r = self.call("POST", who, "/leave")
            seat = self.seat_of(who)
            if seat is None:
                expected = 409
            elif who == 0:
                expected = 403
            elif self.ended:
                expected = 409
            else:
                expected = 200
                self.seats[seat] = None
            assert r.status_code == expected, r.text

        @rule(who=PEOPLE, seat=st.integers(0, 5), level=LEVELS)
        def add_bot(self, who, seat, level):
            r = self.call("POST", who, "/bots", json={"seat": seat, "level": level})
            if who != 0:
                expected = 403
            elif self.ended:
                expected = 409
            elif level == "genius" or seat >= len(self.seats):
                expected = 422
            elif self.seats[seat] is not None:
                expected = 409
            else:
                expected = 200
                self.seats[seat] = ("bot", level)
            assert r.status_code == expected, r.text

        @rule(who=PEOPLE, seat=st.integers(0, 5))
        def free_seat(self, who, seat):
            r = self.call("DELETE", who, f"/seats/{seat}")
            if who != 0:
                expected = 403
            elif self.ended:
                expected = 409
            elif seat >= len(self.seats):
                expected = 422
            elif self.seats[seat] in (None, ("player", 0)):
                expected = 409
            else:
                expected = 200
                if self.seats[seat][0] == "player":
                    self.removed.add(self.seats[seat][1])
                self.seats[seat] = None
            assert r.status_code == expected, r.text

        @rule(who=PEOPLE)
        def close(self, who):
            r = self.call("POST", who, "/close")
            if who != 0:
                expected = 403
            elif self.ended:
                expected = 409
            else:
                expected = 200
                self.closed = True
            assert r.status_code == expected, r.text

        @rule(who=PEOPLE)
        def start(self, who):
            r = self.call("POST", who, "/start")
            if who != 0:
                expected = 403
            elif self.ended or None in self.seats:
                expected = 409
            else:
                expected = 201
                self.started = True
            assert r.status_code == expected, r.text

        @invariant()
        def lobby_matches_the_model(self):
            if not hasattr(self, "id"):
                return
            lobby = self.people[0].get(f"/api/lobbies/{self.id}").json()
            seen = []
            for s in lobby["seats"]:
                if s["player"] is not None:
                    who = next(i for i, p in enumerate(self.people) if p.id == s["player"]["id"])
                    seen.append(("player", who))
                else:
                    seen.append(("bot", s["bot"]) if s["bot"] else None)
            assert seen == self.seats
            assert lobby["status"] == (
                "started" if self.started else "closed" if self.closed else "open"
            )
            assert (lobby["game_id"] is not None) == self.started

    run_state_machine_as_test(
        LobbyFlows,
        settings=settings(
            max_examples=8,
            database=None,
            stateful_step_count=10,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow],
        ),
    )

"""Pairing, as a pure function of the people waiting and the time: tables by rating, the gap
widening with the wait, larger tables first, bots after the wait each person chose, and
nobody left waiting while later arrivals are seated."""

from __future__ import annotations

import math
import random
from datetime import UTC, datetime, timedelta

import pytest

from app.services import pairing
from app.services.pairing import ANYONE_AFTER, HOLD_FOR_LARGER, Entry, accepted_gap, form

T0 = datetime(2026, 7, 1, 12, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def person(
    name: str,
    rating: float = 1500,
    *,
    joined: float = 0,
    fewest: int = 2,
    most: int = 2,
    game: str = "hike",
    speed: str = "3m",
    rated: bool = False,
    bots_after: float | None = None,
    bot_level: str | None = None,
) -> Entry:
    return Entry(name, game, speed, rated, fewest, most, rating, at(joined), bots_after, bot_level)


def seated(tables) -> list[set[str]]:
    return [{e.player_id for e in t.people} for t in tables]


def test_people_sit_with_those_nearest_their_rating():
    waiting = [person("a", 1000), person("b", 2010), person("c", 1010), person("d", 2000)]
    tables = form(waiting, at(1))
    assert sorted(map(sorted, seated(tables))) == [["a", "c"], ["b", "d"]]
    assert [t.spread() for t in tables] == [10, 10]


def test_the_gap_accepted_widens_with_the_wait_and_then_takes_anyone():
    gaps = [accepted_gap(s) for s in (0, 5, 10, 30, ANYONE_AFTER - 1)]
    assert gaps == sorted(gaps) and gaps[0] == pairing.GAP_START
    assert accepted_gap(ANYONE_AFTER) == math.inf
    apart = pairing.GAP_START + 10 * pairing.GAP_PER_SECOND  # accepted after 10 s
    waiting = [person("a", 1000), person("b", 1000 + apart)]
    assert form(waiting, at(9.9)) == []
    assert seated(form(waiting, at(10))) == [{"a", "b"}]


def test_both_must_accept_until_one_has_waited_for_anyone():
    far = person("far", 3000, joined=0)
    near = person("near", 1500, joined=ANYONE_AFTER - 5)
    # The newcomer's gap is narrow: the long wait of the other is not enough on its own...
    assert form([far, near], at(ANYONE_AFTER - 1)) == []
    # ...until the other has waited for anyone.
    assert seated(form([far, near], at(ANYONE_AFTER))) == [{"far", "near"}]


def test_only_people_whose_choices_agree_sit_together():
    waiting = [
        person("a"),
        person("b", speed="1d"),
        person("c", rated=True),
        person("d", game="summer-camp"),
        person("e", fewest=3, most=4),
    ]
    assert form(waiting, at(ANYONE_AFTER + 1)) == []


def test_a_larger_table_is_formed_at_once_and_a_smaller_one_waits_for_more_people():
    three = [person(n, fewest=2, most=4, joined=i) for i, n in enumerate("abc")]
    # Three of a possible four: held back while the oldest has waited less than the hold...
    assert form(three, at(3)) == []
    # ...and formed at once when a fourth comes.
    four = [*three, person("d", fewest=2, most=4, joined=4)]
    tables = form(four, at(4))
    assert seated(tables) == [{"a", "b", "c", "d"}]
    assert tables[0].size == 4 and tables[0].bots == 0
    # Nobody else comes: three sit down once the oldest has waited the hold.
    assert seated(form(three, at(HOLD_FOR_LARGER))) == [{"a", "b", "c"}]


def test_every_person_at_a_table_accepts_its_size():
    waiting = [
        person("three", fewest=3, most=3, joined=0),
        person("two-or-three", fewest=2, most=3, joined=1),
        person("two", fewest=2, most=2, joined=2),
    ]
    # "two" cannot sit at a table of three, and "three" needs two more who accept three.
    tables = form(waiting, at(HOLD_FOR_LARGER + 5))
    assert seated(tables) == [{"two-or-three", "two"}]
    assert tables[0].size == 2
    five = [person(n, fewest=2, most=5) for n in "abcdefg"]
    assert [t.size for t in form(five, at(0))] == [5]


def test_later_arrivals_cannot_take_the_people_an_older_one_holds():
    older = person("older", 1500, fewest=2, most=4, joined=0)
    held = person("held", 1510, fewest=2, most=4, joined=1)
    later = person("later", 1530, fewest=2, most=2, joined=2)
    # "held" and "later" would make a full table of two at once, but "older" came first and
    # holds "held", the nearest, for a larger table.
    assert form([older, held, later], at(3)) == []
    assert seated(form([older, held, later], at(HOLD_FOR_LARGER))) == [{"older", "held"}]


def test_bots_fill_the_seats_after_the_wait_each_chose_at_the_level_chosen():
    alone = person("alone", fewest=3, most=5, bots_after=30, bot_level="search")
    assert form([alone], at(29)) == []
    [table] = form([alone], at(30))
    assert seated([table]) == [{"alone"}]
    assert (table.bots, table.bot_level, table.size) == (2, "search", 3)
    never = person("never", fewest=2, most=2)
    assert form([never], at(3600)) == []


def test_people_who_allow_the_same_bots_sit_together_and_bots_fill_the_rest():
    a = person("a", 1500, fewest=3, most=4, bots_after=10, bot_level="heuristic")
    b = person("b", 1520, fewest=3, most=4, bots_after=10, bot_level="heuristic", joined=1)
    other_level = person("c", 1510, fewest=3, most=4, bots_after=10, bot_level="random")
    not_yet = person("d", 1505, fewest=3, most=4, bots_after=60, bot_level="heuristic")
    # Four people who accept three or four: a full table of people, whatever they allow.
    tables = form([a, b, other_level, not_yet], at(12))
    assert seated(tables) == [{"a", "b", "c", "d"}] and tables[0].bots == 0
    # Three of them, once the oldest has waited the hold: a table of three, no bot needed.
    assert [t.bots for t in form([a, b, other_level], at(12))] == [0]
    tables = form([a, b], at(12))
    assert seated(tables) == [{"a", "b"}] and tables[0].bots == 1
    tables = form([a, other_level], at(11))
    assert sorted(t.bot_level for t in tables) == ["heuristic", "random"]
    assert [t.bots for t in tables] == [2, 2]


def _simulate(seconds: int, seed: int, check) -> list[float]:
    """People arriving every one to three seconds for ``seconds``, two-player tables with an
    outlier now and then, one pass a second; ``check(waiting, tables, now)`` after each pass.
    The waits of those seated."""
    rng = random.Random(seed)
    waiting: list[Entry] = []
    waits: list[float] = []
    next_arrival, n = 0.0, 0
    for second in range(seconds):
        now = at(second)
        while next_arrival <= second:
            rating = (
                rng.choice([rng.gauss(1500, 300), rng.choice([0, 3000])])
                if rng.random() < 0.1
                else rng.gauss(1500, 300)
            )
            waiting.append(person(f"p{n}", rating, joined=next_arrival, most=rng.choice([2, 2, 3])))
            n += 1
            next_arrival += rng.uniform(1, 3)
        tables = form(waiting, now)
        seated_now = {e.player_id for t in tables for e in t.people}
        waits += [e.waited(now) for t in tables for e in t.people]
        waiting = [e for e in waiting if e.player_id not in seated_now]
        check(waiting, tables, now)
    return waits


def nobody_left_behind(waiting, tables, now) -> None:
    """Whoever has waited for anyone is seated at the first pass with someone else waiting."""
    overdue = [e for e in waiting if e.waited(now) >= ANYONE_AFTER]
    assert len(waiting) <= 1 or not overdue, f"{overdue[0].player_id} left waiting"


@pytest.mark.parametrize("seed", range(5))
def test_nobody_waits_forever_while_later_arrivals_are_seated(seed):
    waits = _simulate(600, seed, nobody_left_behind)
    # Seated at the first pass after the wait for anyone, or when the next person comes.
    assert max(waits) <= ANYONE_AFTER + 4


def test_a_pairing_where_both_must_always_accept_leaves_outliers_behind(monkeypatch):
    """The planted defect: without "anyone after a while", an outlier watches later arrivals
    near each other being seated, and the check above catches it."""

    def strict(a, b, now):
        return abs(a.rating - b.rating) <= accepted_gap(min(a.waited(now), b.waited(now)))

    monkeypatch.setattr(pairing, "together", strict)
    monkeypatch.setattr(pairing, "accepted_gap", lambda waited: 100 + 20 * waited)
    with pytest.raises(AssertionError, match="left waiting"):
        _simulate(600, 0, nobody_left_behind)

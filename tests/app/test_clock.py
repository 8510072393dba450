"""The clock's rules, with several seats acting at once as well as one."""

from datetime import UTC, datetime, timedelta

from app.services import clock
from app.services.clock import Clock, Due, Timing

T0 = datetime(2026, 1, 1, tzinfo=UTC)
TIMING = Timing(bot_delay=0.5, abandon_after=3600)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def test_every_acting_person_gets_the_same_time_and_bots_none():
    started = clock.started([0, 1, 2], {0, 1}, 60, T0)
    assert started.deadlines == {0: at(60), 1: at(60)}
    assert clock.due_at(started, [0, 1, 2], {0, 1}, TIMING, T0) == at(0.5)
    assert clock.what_is_due(started, [0, 1, 2], {0, 1}, TIMING, T0) == Due("move", 2, "bot")


def test_a_seat_still_deciding_keeps_its_deadline_when_another_moves():
    started = clock.started([0, 1], {0, 1}, 60, T0)
    moved = clock.after_move(started, [0, 1], {0, 1}, 0, "person", 60, at(20))
    assert moved.deadlines == {0: at(80), 1: at(60)}
    assert clock.due_at(moved, [0, 1], {0, 1}, TIMING, at(20)) == at(60)
    assert clock.what_is_due(moved, [0, 1], {0, 1}, TIMING, at(59)) is None
    assert clock.what_is_due(moved, [0, 1], {0, 1}, TIMING, at(60)) == Due("move", 1, "clock")


def test_time_running_out_marks_the_seat_away_until_its_person_moves():
    started = clock.started([0, 1], {0, 1}, 60, T0)
    timed_out = clock.after_move(started, [0, 1], {0, 1}, 1, "clock", 60, at(60))
    assert timed_out.away == {1: at(60)} and timed_out.deadlines == {0: at(60)}
    # The deadline of seat 0 has come as well; then the bot plays seat 1 at bot pace.
    assert clock.what_is_due(timed_out, [0, 1], {0, 1}, TIMING, at(60)) == Due("move", 0, "clock")
    stood_in = clock.after_move(timed_out, [1], {0, 1}, 1, "bot", 60, at(61))
    assert stood_in.away == {1: at(60)} and stood_in.deadlines == {}
    returned = clock.after_move(stood_in, [0, 1], {0, 1}, 1, "person", 60, at(62))
    assert returned.away == {} and returned.deadlines == {0: at(122), 1: at(122)}


def test_coming_back_starts_the_time_of_a_seat_that_is_to_act():
    away = Clock(deadlines={}, away={1: at(0)})
    assert clock.back(away, 1, [1], 60, at(5)) == Clock({1: at(65)}, {})
    assert clock.back(away, 1, [0], 60, at(5)) == Clock({}, {})
    assert clock.back(away, 1, [1], None, at(5)) == Clock({}, {})


def test_when_every_person_is_away_the_bots_wait_and_the_game_is_aborted_later():
    gone = Clock(deadlines={}, away={0: at(0), 1: at(10)})
    assert clock.due_at(gone, [2], {0, 1}, TIMING, at(11)) == at(3610)
    assert clock.what_is_due(gone, [2], {0, 1}, TIMING, at(3609)) is None
    assert clock.what_is_due(gone, [2], {0, 1}, TIMING, at(3610)) == Due("abort")


def test_an_untimed_table_has_no_deadlines_but_bots_still_move():
    started = clock.started([0, 1], {0}, None, T0)
    assert started.deadlines == {}
    assert clock.due_at(started, [0], {0}, TIMING, T0) is None
    assert clock.due_at(started, [0, 1], {0}, TIMING, T0) == at(0.5)


def test_deadlines_fall_on_whole_seconds():
    started = clock.started([0], {0}, 60, at(0.25))
    assert started.deadlines == {0: at(61)}
    assert clock.back(Clock(away={0: T0}), 0, [0], 60, at(2)).deadlines == {0: at(62)}


def test_the_clock_round_trips_through_json():
    held = Clock(deadlines={0: at(60), 2: at(61)}, away={1: at(3)})
    assert Clock.load(held.dump()) == held
    assert Clock.load(None) == Clock()

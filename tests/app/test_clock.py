"""The clock's rules, with several seats acting at once as well as one."""

from datetime import UTC, datetime, timedelta

from app.services import clock
from app.services.clock import Bank, Clock, Due, Timing

T0 = datetime(2026, 1, 1, tzinfo=UTC)
TIMING = Timing(bot_delay=0.5, abandon_after=3600)
# The per-move clock of tables made before speeds had names: 60 s for every decision.
PM60 = Bank.per_move(60)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def test_every_acting_person_gets_the_same_time_and_bots_none():
    started = clock.started([0, 1, 2], {0, 1}, PM60, T0)
    assert started.deadlines == {0: at(60), 1: at(60)}
    assert clock.due_at(started, [0, 1, 2], {0, 1}, TIMING, T0) == at(0.5)
    assert clock.what_is_due(started, [0, 1, 2], {0, 1}, TIMING, T0) == Due("move", 2, "bot")


def test_a_seat_still_deciding_keeps_its_deadline_when_another_moves():
    started = clock.started([0, 1], {0, 1}, PM60, T0)
    moved = clock.after_move(started, [0, 1], {0, 1}, 0, "person", PM60, at(20))
    assert moved.deadlines == {0: at(80), 1: at(60)}
    assert clock.due_at(moved, [0, 1], {0, 1}, TIMING, at(20)) == at(60)
    assert clock.what_is_due(moved, [0, 1], {0, 1}, TIMING, at(59)) is None
    assert clock.what_is_due(moved, [0, 1], {0, 1}, TIMING, at(60)) == Due("move", 1, "clock")


def test_time_running_out_marks_the_seat_away_until_its_person_moves():
    started = clock.started([0, 1], {0, 1}, PM60, T0)
    timed_out = clock.after_move(started, [0, 1], {0, 1}, 1, "clock", PM60, at(60))
    assert timed_out.away == {1: at(60)} and timed_out.deadlines == {0: at(60)}
    # The deadline of seat 0 has come as well; then the bot plays seat 1 at bot pace.
    assert clock.what_is_due(timed_out, [0, 1], {0, 1}, TIMING, at(60)) == Due("move", 0, "clock")
    stood_in = clock.after_move(timed_out, [1], {0, 1}, 1, "bot", PM60, at(61))
    assert stood_in.away == {1: at(60)} and stood_in.deadlines == {}
    returned = clock.after_move(stood_in, [0, 1], {0, 1}, 1, "person", PM60, at(62))
    assert returned.away == {} and returned.deadlines == {0: at(122), 1: at(122)}
    # Each time noted from when it started: what a reminder measures a quarter of.
    assert returned.since == {0: at(62), 1: at(62)}


def test_coming_back_starts_the_time_of_a_seat_that_is_to_act():
    away = Clock(deadlines={}, away={1: at(0)})
    assert clock.back(away, 1, [1], PM60, at(5)) == Clock({1: at(65)}, {}, since={1: at(5)})
    assert clock.back(away, 1, [0], PM60, at(5)) == Clock({}, {})
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
    started = clock.started([0], {0}, PM60, at(0.25))
    assert started.deadlines == {0: at(61)}
    assert clock.back(Clock(away={0: T0}), 0, [0], PM60, at(2)).deadlines == {0: at(62)}


def test_the_clock_round_trips_through_json():
    held = Clock(deadlines={0: at(60), 2: at(61)}, away={1: at(3)})
    assert Clock.load(held.dump()) == held
    assert Clock.load(None) == Clock()


def test_a_step_taken_back_or_that_may_be_keeps_the_turns_deadline():
    started = clock.started([0], {0, 1}, PM60, T0)
    stepped = clock.after_move(started, [0], {0, 1}, 0, "person", PM60, at(7), keeps_turn=True)
    assert stepped.deadlines == {0: at(60)}
    undone = clock.after_move(stepped, [0], {0, 1}, 0, "person", PM60, at(14), keeps_turn=True)
    assert undone.deadlines == {0: at(60)}
    assert clock.what_is_due(undone, [0], {0, 1}, TIMING, at(60)) == Due("move", 0, "clock")
    # A step that cannot be taken back gives the seat's next decision its own time.
    decided = clock.after_move(undone, [0], {0, 1}, 0, "person", PM60, at(20))
    assert decided.deadlines == {0: at(80)}


# Real time, 3 min + 15 s a move, never more than 6 min: a chess clock for each person.
BLITZ = Bank(start=180, add=15, most=360)


def test_a_bank_runs_down_while_its_seat_acts_and_gains_its_addition_per_decision():
    started = clock.started([0], {0, 1}, BLITZ, T0)
    assert started.deadlines == {0: at(180)}
    # Seat 0 took 100 s: 80 s left, plus 15; seat 1 starts on its full bank.
    moved = clock.after_move(started, [1], {0, 1}, 0, "person", BLITZ, at(100))
    assert moved.deadlines == {1: at(280)} and moved.banks == {0: 95}
    assert moved.left(0, BLITZ, at(100)) == 95 and moved.left(1, BLITZ, at(130)) == 150
    # Seat 1 answers at once; seat 0's turn starts from what it kept.
    answered = clock.after_move(moved, [0], {0, 1}, 1, "person", BLITZ, at(101))
    assert answered.deadlines == {0: at(196)} and answered.banks == {1: 194}
    assert Clock.load(answered.dump()) == answered


def test_a_bank_never_holds_more_than_its_most():
    held = Clock(deadlines={0: at(350)})
    moved = clock.after_move(held, [0], {0}, 0, "person", BLITZ, T0)
    # A seat that keeps acting after a decision gets its addition straight away.
    assert moved.deadlines == {0: at(360)} and moved.banks == {}


def test_steps_taken_back_add_nothing_to_the_bank():
    started = clock.started([0], {0, 1}, BLITZ, T0)
    stepped = clock.after_move(started, [0], {0, 1}, 0, "person", BLITZ, at(50), keeps_turn=True)
    undone = clock.after_move(stepped, [0], {0, 1}, 0, "person", BLITZ, at(60), keeps_turn=True)
    assert undone.deadlines == {0: at(180)} and undone.banks == {}
    passed = clock.after_move(undone, [1], {0, 1}, 0, "person", BLITZ, at(170))
    assert passed.banks == {0: 25}


def test_one_busy_day_does_not_lose_a_turn_based_game():
    day = 86400
    daily = Bank(start=3 * day, add=day, most=3 * day)
    started = clock.started([0], {0, 1}, daily, T0)
    # Two days and a half away from the table: still in time, with half a day spare.
    late = clock.after_move(started, [1], {0, 1}, 0, "person", daily, at(2.5 * day))
    assert late.banks == {0: 1.5 * day}
    # A day on each move after that builds the bank back up to its most.
    again = clock.after_move(late, [0], {0, 1}, 1, "person", daily, at(2.5 * day + 60))
    steady = clock.after_move(again, [1], {0, 1}, 0, "person", daily, at(2.5 * day + 3600))
    assert steady.banks[0] == 1.5 * day - 3540 + day


def test_time_running_out_empties_the_bank_and_coming_back_fills_it():
    started = clock.started([0], {0, 1}, BLITZ, T0)
    timed_out = clock.after_move(started, [1], {0, 1}, 0, "clock", BLITZ, at(180))
    assert timed_out.away == {0: at(180)} and 0 not in timed_out.banks
    assert timed_out.left(0, BLITZ, at(180)) is None
    returned = clock.back(timed_out, 0, [0], BLITZ, at(200))
    assert returned.deadlines[0] == at(380)


def test_a_seat_that_stops_acting_without_deciding_keeps_what_it_had_plus_its_addition():
    started = clock.started([0, 1], {0, 1}, BLITZ, T0)
    # Seat 0's decision ends seat 1's too (both were asked; one answer was enough).
    moved = clock.after_move(started, [0], {0, 1}, 0, "person", BLITZ, at(30))
    assert moved.banks == {1: 165} and moved.deadlines == {0: at(195)}

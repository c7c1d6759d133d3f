"""Time controls and the clock (:mod:`sixtysix.play.clock`): every rule of the module's
documentation, with the moments given by the test (no real time passes)."""

from __future__ import annotations

import pytest

from sixtysix.play.clock import Clock, ClockError, Kind, TimeControl


@pytest.mark.parametrize(("text", "kind", "seconds", "increment", "written"), [
    ("5+3", Kind.MATCH, 300.0, 3.0, "5+3"),
    (" 10+0 ", Kind.MATCH, 600.0, 0.0, "10+0"),
    ("1.5+2", Kind.MATCH, 90.0, 2.0, "1.5+2"),
    ("20/move", Kind.MOVE, 20.0, 0.0, "20/move"),
    ("7.5/MOVE", Kind.MOVE, 7.5, 0.0, "7.5/move"),
])
def test_time_controls_read_and_write(text: str, kind: Kind, seconds: float, increment: float,
                                      written: str) -> None:
    control = TimeControl.parse(text)
    assert (control.kind, control.seconds, control.increment) == (kind, seconds, increment)
    assert str(control) == written and TimeControl.parse(str(control)) == control


@pytest.mark.parametrize(("text", "message"), [
    ("", r"a time control is minutes\+seconds .* not ''"),
    ("5", r"not '5'"),
    ("5+3+1", r"not '5\+3\+1'"),
    ("-1+0", r"not '-1\+0'"),
    ("0+5", r"more than 0 and at most 86400 seconds, not 0\.0"),
    ("2000+0", r"at most 86400 seconds, not 120000\.0"),
    ("5+900", r"an increment is 0 to 600 seconds, not 900\.0"),
    ("0/move", r"not 0\.0"),
])
def test_a_control_that_cannot_be_read_says_why(text: str, message: str) -> None:
    with pytest.raises(ClockError, match=message):
        TimeControl.parse(text)


def test_only_the_seat_to_act_spends_time_and_the_increment_comes_after_each_decision() -> None:
    clock = Clock(TimeControl.parse("1+2"))
    clock.start(0, at=10.0)
    assert clock.remaining(0, at=25.0) == 45.0 and clock.remaining(1, at=25.0) == 60.0
    assert clock.deadline() == 70.0
    assert clock.stop(at=30.0) == 42.0  # 60 - 20 + 2
    clock.start(1, at=30.0)
    assert clock.remaining(0, at=100.0) == 42.0  # stopped: it does not run
    assert clock.stop(at=31.0) == 61.0  # a quick decision gains the increment
    clock.start(0, at=31.0)
    assert clock.flagged(at=72.9) is None
    assert clock.flagged(at=73.0) == 0  # 42 s gone: time is up
    assert clock.stop(at=74.0) == -1.0  # too late: no increment
    assert clock.flagged(at=74.0) == 0


def test_a_move_clock_gives_each_decision_its_whole_time_and_keeps_nothing() -> None:
    clock = Clock(TimeControl.parse("20/move"))
    clock.start(0, at=0.0)
    assert clock.stop(at=5.0) == 15.0
    clock.start(1, at=5.0)
    assert clock.remaining(0, at=6.0) == 20.0  # its next decision gets 20 s again
    assert clock.stop(at=24.0) == 1.0
    clock.start(1, at=24.0)
    assert clock.remaining(1, at=24.0) == 20.0  # not 1 + 20
    assert clock.flagged(at=43.9) is None and clock.flagged(at=44.0) == 1


def test_a_pause_charges_the_time_spent_and_adds_no_increment() -> None:
    clock = Clock(TimeControl.parse("1+2"))
    clock.start(0, at=10.0)
    clock.pause(at=25.0)  # a server hands the game over: 15 s spent, no decision made
    assert clock.running is None and clock.remaining(0, at=90.0) == 45.0
    clock.start(0, at=100.0)  # taken up again later: the time between is nobody's
    assert clock.remaining(0, at=105.0) == 40.0
    with pytest.raises(ClockError, match=r"no clock runs"):
        Clock(TimeControl.parse("1+2")).pause(at=1.0)


def test_a_clock_is_used_in_turn() -> None:
    clock = Clock(TimeControl.parse("5+0"))
    with pytest.raises(ClockError, match=r"no clock runs"):
        clock.stop(at=1.0)
    clock.start(0, at=0.0)
    with pytest.raises(ClockError, match=r"seat 0's clock runs: stop it first"):
        clock.start(1, at=1.0)
    with pytest.raises(ClockError, match=r"a seat is 0 or 1, not 2"):
        Clock(TimeControl.parse("5+0")).start(2, at=0.0)
    with pytest.raises(ClockError, match=r"a move clock has no increment"):
        TimeControl(Kind.MOVE, 10.0, 1.0)


def test_a_clock_is_a_value_that_can_be_kept_and_restored() -> None:
    """A server that restarts rebuilds the clock from what it stored."""
    clock = Clock(TimeControl.parse("3+2"))
    clock.start(1, at=50.0)
    restored = Clock(TimeControl.parse(str(clock.control)), left=list(clock.left), running=clock.running,
                     since=clock.since)
    assert restored == clock and restored.remaining(1, at=80.0) == clock.remaining(1, at=80.0) == 150.0

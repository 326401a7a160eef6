"""The project's own button logic over a fake clock: debounce, press, hold, repeat, double."""

from __future__ import annotations

from crib_pi.devices.buttons.base import MockButtons
from crib_pi.devices.buttons.logic import ButtonEvent
from crib_pi.devices.clock import FakeClock
from crib_pi.devices.config import ButtonsConfig
from crib_pi.devices.report import Reporter

TIMING = ButtonsConfig()  # debounce 0.02, hold 0.8, double 0.35, repeat 0.4, stuck 10


def make(clock: FakeClock, reporter: Reporter) -> MockButtons:
    return MockButtons(TIMING, ["go", "confirm", "undo"], clock, reporter)


def gestures(events: list[ButtonEvent]) -> list[tuple[str, str]]:
    return [(e.button, e.gesture) for e in events]


def bounce(buttons: MockButtons, clock: FakeClock, name: str, down: bool) -> None:
    """A contact closing (or opening) with three quick bounces inside the debounce time."""
    for level in (down, not down, down, not down, down):
        buttons.edge(name, level)
        clock.advance(0.003)


def test_bounce_inside_debounce_time_is_one_press(clock: FakeClock, reporter: Reporter) -> None:
    buttons = make(clock, reporter)
    bounce(buttons, clock, "go", True)
    clock.advance(0.1)
    bounce(buttons, clock, "go", False)
    clock.advance(0.1)
    assert gestures(buttons.poll()) == [("go", "press")]
    assert len(buttons.edges) == 10


def test_press_is_sent_only_after_the_release_settles(clock: FakeClock, reporter: Reporter) -> None:
    buttons = make(clock, reporter)
    buttons.press("go")
    clock.advance(0.1)
    assert buttons.poll() == []
    buttons.release("go")
    clock.advance(0.01)
    assert buttons.poll() == []
    clock.advance(0.015)
    events = buttons.poll()
    assert gestures(events) == [("go", "press")]
    assert abs(events[0].at - (100.1 + TIMING.debounce_s)) < 1e-9


def test_blip_shorter_than_debounce_is_ignored(clock: FakeClock, reporter: Reporter) -> None:
    buttons = make(clock, reporter)
    buttons.press("go")
    clock.advance(0.01)
    buttons.release("go")
    clock.advance(1.0)
    assert buttons.poll() == []


def test_hold_is_recognised_once_and_no_press_follows(clock: FakeClock, reporter: Reporter) -> None:
    buttons = make(clock, reporter)
    buttons.press("confirm")
    clock.advance(0.5)
    assert buttons.poll() == []
    clock.advance(0.5)
    assert gestures(buttons.poll()) == [("confirm", "hold")]
    clock.advance(2.0)
    buttons.release("confirm")
    clock.advance(1.0)
    assert buttons.poll() == []


def test_hold_undo_repeats_while_held(clock: FakeClock, reporter: Reporter) -> None:
    buttons = make(clock, reporter)
    buttons.press("undo")
    clock.advance(TIMING.hold_s + TIMING.debounce_s + 3 * TIMING.repeat_s + 0.01)
    events = buttons.poll()  # one late poll still gets every timer, in order
    assert gestures(events) == [("undo", "hold")] + [("undo", "repeat")] * 3
    times = [e.at for e in events]
    assert times == sorted(times)
    buttons.release("undo")
    clock.advance(1.0)
    assert buttons.poll() == []


def test_double_press_is_recognised(clock: FakeClock, reporter: Reporter) -> None:
    buttons = make(clock, reporter)
    for _ in range(2):
        buttons.press("confirm")
        clock.advance(0.08)
        buttons.release("confirm")
        clock.advance(0.1)
    clock.advance(1.0)
    assert gestures(buttons.poll()) == [("confirm", "double")]


def test_single_press_of_a_double_button_waits_for_the_window(
    clock: FakeClock, reporter: Reporter
) -> None:
    buttons = make(clock, reporter)
    buttons.press("confirm")
    clock.advance(0.08)
    buttons.release("confirm")
    clock.advance(0.2)
    assert buttons.poll() == []
    clock.advance(0.2)
    assert gestures(buttons.poll()) == [("confirm", "press")]


def test_two_presses_too_far_apart_are_two_presses(clock: FakeClock, reporter: Reporter) -> None:
    buttons = make(clock, reporter)
    for _ in range(2):
        buttons.press("confirm")
        clock.advance(0.08)
        buttons.release("confirm")
        clock.advance(0.6)
    assert gestures(buttons.poll()) == [("confirm", "press"), ("confirm", "press")]


def test_a_press_during_a_hold_is_not_lost(clock: FakeClock, reporter: Reporter) -> None:
    buttons = make(clock, reporter)
    buttons.press("undo")
    clock.advance(1.0)
    buttons.press("go")
    clock.advance(0.1)
    buttons.release("go")
    clock.advance(0.3)
    events = buttons.poll()
    assert ("undo", "hold") in gestures(events)
    assert gestures(events).count(("go", "press")) == 1
    assert [e.at for e in events] == sorted(e.at for e in events)


def test_a_stuck_button_is_reported_once_and_the_others_work(
    clock: FakeClock, reporter: Reporter
) -> None:
    buttons = make(clock, reporter)
    buttons.press("undo")
    for _ in range(30):
        clock.advance(1.0)
        events = buttons.poll()
    repeats = sum(1 for e in buttons.sent if e.gesture == "repeat")
    assert repeats < TIMING.stuck_s / TIMING.repeat_s  # repeats stop once it is stuck
    assert events == []
    assert len(reporter.about("button undo")) == 1
    buttons.press("go")
    clock.advance(0.1)
    buttons.release("go")
    clock.advance(0.1)
    assert gestures(buttons.poll()) == [("go", "press")]


def test_pressed_at_start_is_ignored_until_released(clock: FakeClock, reporter: Reporter) -> None:
    buttons = make(clock, reporter)
    buttons.start_pressed("go")
    clock.advance(5.0)
    assert buttons.poll() == []
    assert "reads pressed at start" in str(reporter.about("button go")[0])
    buttons.release("go")
    clock.advance(0.1)
    assert buttons.poll() == []
    buttons.press("go")
    clock.advance(0.1)
    buttons.release("go")
    clock.advance(0.1)
    assert gestures(buttons.poll()) == [("go", "press")]

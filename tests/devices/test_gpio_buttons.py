"""GPIO buttons driven through gpiozero's own MockFactory pins (reset after each test)."""

from __future__ import annotations

from typing import Any

from crib_pi.devices.buttons.gpio import GpioButtons
from crib_pi.devices.clock import FakeClock
from crib_pi.devices.config import ButtonsConfig
from crib_pi.devices.report import Reporter

CONFIG = ButtonsConfig()  # go 17, confirm 27, undo 22


def test_a_bouncing_pin_gives_one_press(
    mock_factory: Any, clock: FakeClock, reporter: Reporter
) -> None:
    buttons = GpioButtons(CONFIG, clock, reporter)
    pin = mock_factory.pin(17)
    for _ in range(3):
        pin.drive_low()
        clock.advance(0.002)
        pin.drive_high()
        clock.advance(0.002)
    pin.drive_low()
    clock.advance(0.2)
    pin.drive_high()
    clock.advance(0.1)
    events = buttons.poll()
    assert [(e.button, e.gesture) for e in events] == [("go", "press")]
    buttons.close()


def test_hold_on_a_pin(mock_factory: Any, clock: FakeClock, reporter: Reporter) -> None:
    buttons = GpioButtons(CONFIG, clock, reporter)
    mock_factory.pin(22).drive_low()
    clock.advance(1.3)
    assert [(e.button, e.gesture) for e in buttons.poll()] == [("undo", "hold"), ("undo", "repeat")]
    buttons.close()


def test_a_line_stuck_low_is_reported_once_and_the_rest_work(
    mock_factory: Any, clock: FakeClock, reporter: Reporter
) -> None:
    buttons = GpioButtons(CONFIG, clock, reporter)
    mock_factory.pin(27).drive_low()  # confirm's line shorts to ground and stays there
    sent = []
    for _ in range(30):
        clock.advance(1.0)
        sent += [e for e in buttons.poll() if e.button == "confirm"]
    assert [e.gesture for e in sent] == ["hold"]  # confirm does not repeat; stuck sends nothing
    problems = reporter.about("button confirm")
    assert len(problems) == 1
    assert "GPIO 27" in problems[0].message
    pin = mock_factory.pin(17)
    pin.drive_low()
    clock.advance(0.1)
    pin.drive_high()
    clock.advance(0.1)
    assert [(e.button, e.gesture) for e in buttons.poll()] == [("go", "press")]
    buttons.close()


def test_a_line_low_at_start_is_ignored_and_reported(clock: FakeClock, reporter: Reporter) -> None:
    from gpiozero.pins.mock import MockFactory, MockPin

    class ShortedPin(MockPin):  # a line soldered to ground: the pull-up cannot lift it
        def _set_pull(self, value: str) -> None:
            super()._set_pull(value)
            if self.info.name == "GPIO27":
                self.drive_low()

    factory = MockFactory(pin_class=ShortedPin)
    try:
        buttons = GpioButtons(CONFIG, clock, reporter, pin_factory=factory)
        clock.advance(3.0)
        assert buttons.poll() == []
        assert "reads pressed at start" in reporter.about("button confirm")[0].message
        buttons.close()
    finally:
        factory.reset()


def test_close_releases_the_pins_and_twice_is_harmless(
    mock_factory: Any, clock: FakeClock, reporter: Reporter
) -> None:
    from gpiozero import Button

    buttons = GpioButtons(CONFIG, clock, reporter)
    assert buttons.names == ("go", "confirm", "undo")
    buttons.close()
    buttons.close()
    again = Button(17)  # would raise GPIOPinInUse if the pin were still held
    again.close()


def test_a_pin_that_cannot_be_opened_is_reported(
    mock_factory: Any, clock: FakeClock, reporter: Reporter
) -> None:
    from gpiozero import Button

    holder = Button(22)
    buttons = GpioButtons(CONFIG, clock, reporter)
    assert "undo" in buttons.names
    assert len(reporter.about("button undo")) == 1
    buttons.close()
    holder.close()

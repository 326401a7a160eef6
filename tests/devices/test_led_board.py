"""The LED board on the recording mock strip: animation over the fake clock, failures, close."""

from __future__ import annotations

import pytest

from crib_pi.devices.clock import FakeClock
from crib_pi.devices.config import DeviceConfig, LedConfig
from crib_pi.devices.errors import DeviceConfigError
from crib_pi.devices.leds.base import MockStrip
from crib_pi.devices.leds.board import LedBoard
from crib_pi.devices.leds.frame import OFF
from crib_pi.devices.report import Reporter
from crib_pi.devices.scenes import pegs_snapshot, win

CONFIG = LedConfig()


def board(clock: FakeClock, reporter: Reporter, config: LedConfig = CONFIG) -> LedBoard:
    return LedBoard(MockStrip(242), config, clock, reporter)


def run_for(leds: LedBoard, clock: FakeClock, seconds: float) -> None:
    end = clock.now() + seconds
    while clock.now() < end:
        clock.advance(0.01)
        leds.tick()


def test_a_move_animates_then_rests_on_the_still_frame(
    clock: FakeClock, reporter: Reporter
) -> None:
    leds = board(clock, reporter)
    strip = leds.strip
    assert isinstance(strip, MockStrip)
    leds.show(pegs_snapshot([(10, 5), (0, 0)], 2))
    assert len(strip.frames) == 1
    after = pegs_snapshot([(22, 10), (0, 0)], 2)
    leds.show(after)
    assert leds.busy
    run_for(leds, clock, 1.0)
    assert not leds.busy
    assert len(strip.frames) > 5
    assert strip.frames[-1] == leds.frame(after)
    assert strip.frames[-1][21] == CONFIG.colours[0]


def test_the_win_display_keeps_running_until_the_next_game(
    clock: FakeClock, reporter: Reporter
) -> None:
    leds = board(clock, reporter)
    strip = leds.strip
    assert isinstance(strip, MockStrip)
    leds.show(win())
    run_for(leds, clock, 2.0)
    shown = len(strip.frames)
    run_for(leds, clock, 2.0)
    assert len(strip.frames) > shown + 10
    leds.show(pegs_snapshot([(0, 0), (0, 0)], 2))
    run_for(leds, clock, 1.0)
    settled = len(strip.frames)
    run_for(leds, clock, 1.0)
    assert len(strip.frames) == settled


def test_every_frame_sent_is_under_the_limit(clock: FakeClock, reporter: Reporter) -> None:
    config = DeviceConfig.from_mapping({"leds": {"max_amps": 0.2}}).leds
    leds = board(clock, reporter, config)
    strip = leds.strip
    assert isinstance(strip, MockStrip)
    leds.show(pegs_snapshot([(0, 0), (0, 0)], 2))
    leds.show(pegs_snapshot([(30, 0), (12, 0)], 2))
    leds.show(win())
    run_for(leds, clock, 3.0)
    assert len(strip.frames) > 20
    assert max(leds.power.amps(f) for f in strip.frames) <= 0.2


class BrokenStrip(MockStrip):
    """A strip whose data line fails after the first frame."""

    def show(self, frame: tuple[tuple[int, int, int], ...]) -> None:
        if self.frames:
            raise OSError("SPI transfer failed")
        super().show(frame)


def test_a_failing_strip_is_reported_once_and_the_game_goes_on(
    clock: FakeClock, reporter: Reporter
) -> None:
    leds = LedBoard(BrokenStrip(242), CONFIG, clock, reporter)
    for n in range(5):
        leds.show(pegs_snapshot([(n * 3, 0), (n, 0)], 2))
        run_for(leds, clock, 0.5)
    problems = reporter.about("leds")
    assert len(problems) == 1
    assert "SPI transfer failed" in problems[0].message
    leds.close()
    leds.close()


def test_close_turns_every_led_off_once(clock: FakeClock, reporter: Reporter) -> None:
    leds = board(clock, reporter)
    strip = leds.strip
    assert isinstance(strip, MockStrip)
    leds.show(pegs_snapshot([(45, 40), (97, 91)], 2))
    leds.close()
    leds.close()
    assert strip.frames[-1] == (OFF,) * 242
    assert strip.closed == 1
    leds.show(pegs_snapshot([(50, 45), (97, 91)], 2))  # after close: ignored, no error
    assert strip.frames[-1] == (OFF,) * 242


def test_a_game_with_more_sides_than_tracks_is_reported(
    clock: FakeClock, reporter: Reporter
) -> None:
    leds = board(clock, reporter)
    leds.show(pegs_snapshot([(1, 0), (2, 0), (3, 0)], 3))
    (problem,) = reporter.about("leds")
    assert "fewer than the 363 LEDs" in problem.message


def test_idle_current_over_budget_is_a_config_error(clock: FakeClock, reporter: Reporter) -> None:
    config = DeviceConfig.from_mapping({"leds": {"idle_ma_per_led": 10.0, "max_amps": 1.0}}).leds
    with pytest.raises(DeviceConfigError, match="idle"):
        board(clock, reporter, config)

"""One contract for every factory that can load here: mock and desktop in CI, pi on a Pi.

A factory whose libraries are missing is skipped, never faked.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from typing import Any

import pytest

from crib_pi.devices import Devices, make_devices
from crib_pi.devices.cameras.base import CameraFrame
from crib_pi.devices.clock import FakeClock
from crib_pi.devices.factory import on_a_pi
from crib_pi.devices.leds.frame import OFF
from crib_pi.devices.scenes import SCENES, pegs_snapshot

NEEDS = {
    "mock": (),
    "desktop": ("pygame",),
    "pi": ("gpiozero", "pygame", "picamera2"),
}


@pytest.fixture(params=list(NEEDS))
def devices(request: pytest.FixtureRequest) -> Iterator[Devices]:
    backend = request.param
    missing = [m for m in NEEDS[backend] if importlib.util.find_spec(m) is None]
    if missing:
        pytest.skip(f"{backend} needs {', '.join(missing)}")
    if backend == "pi" and not on_a_pi():
        pytest.skip("the pi factory runs on a Raspberry Pi")
    made = make_devices(backend=backend, clock=FakeClock())
    try:
        yield made
    finally:
        made.close()


def test_the_factory_is_the_one_asked_for(devices: Devices) -> None:
    assert devices.backend in NEEDS


def test_every_scene_shows_on_leds_and_screen(devices: Devices) -> None:
    for make in SCENES.values():
        devices.show(make())
        devices.leds.tick()
    frame = devices.leds.last_frame
    assert len(frame) == devices.leds.strip.count
    assert any(rgb != OFF for rgb in frame)
    assert [p for p in devices.problems if p.device in ("leds", "screen")] == []


def test_the_leds_show_the_pegs(devices: Devices) -> None:
    clock = devices.clock
    assert isinstance(clock, FakeClock)
    devices.show(pegs_snapshot([(45, 40), (97, 91)], 2))
    clock.advance(1.0)
    devices.leds.tick()
    frame = devices.leds.last_frame
    colours = devices.config.leds.colours
    assert frame[44] == colours[0]
    assert frame[121 + 96] == colours[1]


def test_buttons_poll_and_name_the_configured_buttons(devices: Devices) -> None:
    names = set(devices.buttons.names)
    assert names <= {b.name for b in devices.config.buttons.buttons}
    assert devices.buttons.poll() == []


def test_the_camera_gives_rgb_frames_or_none(devices: Devices) -> None:
    frame = devices.camera.read()
    assert frame is None or (isinstance(frame, CameraFrame) and frame.image.shape[2] == 3)


def test_the_screen_pump_does_not_ask_to_quit(devices: Devices) -> None:
    assert devices.screen.pump() is False


def test_closing_twice_is_harmless_and_leaves_the_strip_dark(devices: Devices) -> None:
    devices.show(pegs_snapshot([(45, 40), (97, 91)], 2))
    devices.close()
    devices.close()
    strip: Any = devices.leds.strip
    last = strip.frames[-1] if hasattr(strip, "frames") else getattr(strip, "last", ())
    assert all(rgb == OFF for rgb in last)
    assert [p for p in devices.problems if "close" in p.message] == []

"""Missing or failing devices are reported once, clearly, and the rest keeps working.

The pi factory is built here, on a machine with no strip, no camera module and no KMS
display: gpiozero's mock pins stand in for the header, and everything else is really missing.
"""

from __future__ import annotations

import importlib.util
import re
from typing import Any

import pytest

from crib_pi.devices import make_devices
from crib_pi.devices.buttons.base import ButtonSet
from crib_pi.devices.cameras.base import NullCamera
from crib_pi.devices.clock import FakeClock
from crib_pi.devices.config import DeviceConfig
from crib_pi.devices.factory import on_a_pi
from crib_pi.devices.leds.base import NullStrip
from crib_pi.devices.scenes import pegs_snapshot
from crib_pi.devices.screen.base import NullScreen
from crib_pi.i18n import in_language
from crib_pi.voice.speech import NullVoice

pytestmark = pytest.mark.skipif(bool(on_a_pi()), reason="on a Pi these devices may be there")


def test_pi_factory_without_the_hardware_reports_each_missing_device_once(
    mock_factory: Any,
) -> None:
    config = DeviceConfig.from_mapping({"screen": {"driver": "offscreen-missing"}})
    clock = FakeClock()
    devices = make_devices(config, backend="pi", clock=clock, pin_factory=mock_factory)
    try:
        assert isinstance(devices.leds.strip, NullStrip)
        assert isinstance(devices.camera, NullCamera)
        assert isinstance(devices.screen, NullScreen)
        about = {p.device: p.message for p in devices.problems}
        silent = isinstance(devices.voice, NullVoice)  # no espeak-ng or no sound card here
        assert set(about) == {"leds", "camera", "screen"} | ({"voice"} if silent else set())
        if importlib.util.find_spec("rpi_ws281x") is None:
            assert "rpi_ws281x is not installed" in about["leds"]
        assert "carrying on without it" in about["camera"]
        for n in range(20):  # the game goes on: nothing new is reported
            devices.show(pegs_snapshot([(n, 0), (n // 2, 0)], 2))
            assert devices.camera.read() is None
            clock.advance(0.1)
            devices.leds.tick()
        assert len(devices.problems) == 3 + silent
        pin = mock_factory.pin(17)  # and the buttons still work
        pin.drive_low()
        clock.advance(0.1)
        pin.drive_high()
        clock.advance(0.1)
        assert [(e.button, e.gesture) for e in devices.buttons.poll()] == [("go", "press")]
    finally:
        devices.close()
        devices.close()


def test_desktop_without_a_webcam_reports_the_camera_and_keeps_keys(tmp_path: Any) -> None:
    pytest.importorskip("pygame")
    missing = tmp_path / "no-such-video.avi"
    config = DeviceConfig.from_mapping({"camera": {"device": str(missing)}})
    devices = make_devices(config, backend="desktop", clock=FakeClock())
    try:
        assert isinstance(devices.camera, NullCamera)
        (problem,) = devices.reporter.about("camera")
        assert str(missing) in problem.message or "OpenCV" in problem.message
        assert "go" in devices.buttons.names
        assert not isinstance(devices.screen, NullScreen)
    finally:
        devices.close()


def test_a_pi_with_no_buttons_wired_still_polls(mock_factory: Any) -> None:
    config = DeviceConfig.from_mapping(
        {
            "buttons": {n: {"pin": -1} for n in ("go", "confirm", "undo")},
            "screen": {"driver": "offscreen-missing"},
        }
    )
    devices = make_devices(config, backend="pi", clock=FakeClock(), pin_factory=mock_factory)
    try:
        assert isinstance(devices.buttons, ButtonSet)
        assert devices.buttons.names == ()
        assert devices.buttons.poll() == []
    finally:
        devices.close()


def test_a_device_that_fails_to_close_is_reported_and_the_rest_close() -> None:
    devices = make_devices(backend="mock")

    class Sticky:
        names = ()

        def poll(self) -> list[object]:
            return []

        def close(self) -> None:
            raise OSError("line busy")

    devices.buttons = Sticky()  # type: ignore[assignment]
    devices.close()
    devices.close()
    assert len(devices.reporter.about("buttons")) == 1
    assert devices.camera.closed == 1  # type: ignore[attr-defined]
    assert devices.screen.closed == 1  # type: ignore[attr-defined]


def test_the_missing_devices_are_reported_in_the_tables_language(mock_factory: Any) -> None:
    """The problems a person reads on the screen and from ``crib-pi run`` are in French with
    ``--lang fr``: the device's name and our words (a library's own reason stays as it is)."""
    config = DeviceConfig.from_mapping({"screen": {"driver": "offscreen-missing"}})
    clock = FakeClock()
    with in_language("fr"):
        devices = make_devices(config, backend="pi", clock=clock, pin_factory=mock_factory)
        try:
            mock_factory.pin(17).drive_low()  # the go button held past stuck_s
            for _tick in range(12):
                clock.advance(1.0)
                devices.buttons.poll()
            said = {p.device: str(p) for p in devices.problems}
        finally:
            devices.close()
    assert said["camera"].startswith("caméra : ") and said["camera"].endswith(" ; on continue sans")
    assert said["screen"].startswith("écran : aucun affichage (offscreen-missing) : ")
    if importlib.util.find_spec("rpi_ws281x") is None:
        assert said["leds"].startswith("LED : rpi_ws281x n'est pas installé (")
    assert said["button go"] == (
        "bouton go : go (GPIO 17) est tenu depuis 10 s (ligne bloquée au niveau bas ?) ;"
        " ignoré jusqu'à ce qu'il soit relâché"
    )
    ours = re.sub(
        r"\([^()]*'[^()]*\)|offscreen-missing not available", " ", " ".join(said.values())
    )
    assert (
        re.findall(r"\b(the|is|not|no|without|carrying|held|installed|found|ignored)\b", ours) == []
    )
    with in_language("en"):
        assert [str(p).split(":")[0] for p in devices.problems][-1] == "button go"

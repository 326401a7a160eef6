"""One factory for every device: ``pi``, ``desktop`` or ``mock``, by argument, config or the
``CRIB_PI_DEVICES`` environment variable.

Drivers are imported inside the builders, so choosing ``mock`` or ``desktop`` never imports a
Pi-only library. A device that cannot be had is reported once and replaced by its null
stand-in, so a Pi with no camera, or a laptop with no webcam, still runs a game.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from crib_pi.devices.buttons.base import Buttons, ButtonSet, MockButtons
from crib_pi.devices.cameras.base import Camera, MockCamera, NullCamera
from crib_pi.devices.clock import Clock, FakeClock, SystemClock
from crib_pi.devices.config import BACKENDS, DeviceConfig, LedConfig
from crib_pi.devices.errors import DeviceConfigError, DeviceUnavailableError
from crib_pi.devices.leds.base import LedStrip, MockStrip, NullStrip
from crib_pi.devices.leds.board import LedBoard
from crib_pi.devices.leds.layout import LedLayout
from crib_pi.devices.report import DeviceProblem, Reporter
from crib_pi.devices.screen.base import Hint, MockScreen, NullScreen, Screen
from crib_pi.i18n import N_, _
from crib_pi.snapshot import BoardSnapshot
from crib_pi.voice.speakers import MockSpeaker, Speaker
from crib_pi.voice.speech import NullVoice, Voice, VoiceLike

ENV = "CRIB_PI_DEVICES"
PI_MODEL = Path("/proc/device-tree/model")


@dataclass
class Devices:
    """Everything the main loop talks to, closed together."""

    backend: str
    config: DeviceConfig
    clock: Clock
    reporter: Reporter
    camera: Camera
    buttons: Buttons
    leds: LedBoard
    screen: Screen
    voice: VoiceLike = field(default_factory=NullVoice)
    _closed: bool = field(default=False, repr=False)

    def show(self, snapshot: BoardSnapshot) -> None:
        """Show a board state on the LEDs and the screen."""
        self.leds.show(snapshot)
        self.screen.show(snapshot)

    @property
    def problems(self) -> tuple[DeviceProblem, ...]:
        return self.reporter.problems

    def close(self) -> None:
        """Close every device, even if one fails to; safe to call twice."""
        if self._closed:
            return
        self._closed = True
        for name, device in (
            ("leds", self.leds),
            ("buttons", self.buttons),
            ("camera", self.camera),
            ("screen", self.screen),
            ("voice", self.voice),
        ):
            try:
                device.close()
            except Exception as exc:
                said = _("did not close cleanly ({exc!r})").format(exc=exc)
                self.reporter.problem(name, said)

    def __enter__(self) -> Devices:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def on_a_pi() -> str:
    """The Pi model ("Raspberry Pi 5 Model B Rev 1.0"), or "" elsewhere."""
    try:
        model = PI_MODEL.read_text(errors="replace").strip("\x00\n ")
    except OSError:
        return ""
    return model if "raspberry pi" in model.lower() else ""


def choose_backend(config: DeviceConfig, backend: str | None = None) -> str:
    """The argument, else the config, else ``CRIB_PI_DEVICES``, else pi on a Pi, else desktop."""
    chosen = backend or config.backend or os.environ.get(ENV, "").strip().lower()
    if not chosen:
        return "pi" if on_a_pi() else "desktop"
    if chosen not in BACKENDS:
        raise DeviceConfigError(
            _("{env}={chosen!r} is not one of {known}").format(
                env=ENV, chosen=chosen, known=", ".join(BACKENDS)
            )
        )
    return chosen


def strip_count(config: LedConfig) -> int:
    """LEDs on the strip: ``count``, or what the layout needs (two tracks unless told)."""
    tracks = 1 if config.shared_track else config.tracks or 2
    layout = LedLayout(
        tracks=tracks,
        holes=config.holes,
        leds_per_track=config.leds_per_track,
        start_offset=config.start_offset,
        track_gap=config.track_gap,
        count=config.count,
    )
    return layout.size


def make_devices(
    config: DeviceConfig | None = None,
    *,
    backend: str | None = None,
    clock: Clock | None = None,
    reporter: Reporter | None = None,
    pin_factory: Any = None,
) -> Devices:
    """Build the devices of one backend; missing ones are reported and stood in for."""
    config = config or DeviceConfig()
    chosen = choose_backend(config, backend)
    reporter = reporter or Reporter()
    if chosen == "mock":
        return _mock(config, clock or FakeClock(), reporter)
    clock = clock or SystemClock()
    if chosen == "desktop":
        return _desktop(config, clock, reporter)
    return _pi(config, clock, reporter, pin_factory)


def _try(reporter: Reporter, build: Callable[[], object], stand_in: Callable[[], object]) -> Any:
    """``build()``, or ``stand_in()`` after reporting why not (typed by the caller's target)."""
    try:
        return build()
    except DeviceUnavailableError as exc:
        reporter.problem(
            exc.device, _("{reason}; carrying on without it").format(reason=exc.reason)
        )
        return stand_in()


def _mock(config: DeviceConfig, clock: Clock, reporter: Reporter) -> Devices:
    names = [b.name for b in config.buttons.buttons]
    strip = MockStrip(strip_count(config.leds))
    return Devices(
        "mock",
        config,
        clock,
        reporter,
        camera=MockCamera(),
        buttons=MockButtons(config.buttons, names, clock, reporter),
        leds=LedBoard(strip, config.leds, clock, reporter),
        screen=MockScreen(config.screen.size if config.screen.size != (0, 0) else (800, 480)),
        voice=_voice(config, MockSpeaker(), reporter),
    )


def _hints(config: DeviceConfig, keys: bool) -> tuple[Hint, ...]:
    meanings = {  # English messages, translated where the screen draws them
        "go": N_("go · hold: voice"),
        "confirm": N_("ok · hold: learn"),
        "undo": N_("undo · hold: more"),
    }
    hints = []
    for name, meaning in meanings.items():
        spec = config.buttons.spec(name)
        if keys and spec.keys:
            hints.append((spec.keys[0].title(), meaning))
        elif not keys and spec.pin is not None:
            hints.append((name.title(), meaning))
    return tuple(hints)


def _desktop(config: DeviceConfig, clock: Clock, reporter: Reporter) -> Devices:
    from crib_pi.devices.buttons.keys import KeyButtons
    from crib_pi.devices.cameras.cv import CvCamera
    from crib_pi.devices.screen.pygame_ce import PygameScreen

    screen: Screen = _try(
        reporter, lambda: PygameScreen(config.screen, reporter, _hints(config, True)), NullScreen
    )
    buttons: Buttons = _try(
        reporter,
        lambda: KeyButtons(config.buttons, clock, reporter),
        lambda: ButtonSet(config.buttons, (), clock, reporter),
    )
    camera: Camera = _try(reporter, lambda: CvCamera(config.camera, clock, reporter), NullCamera)
    strip = NullStrip(strip_count(config.leds))
    leds = LedBoard(strip, config.leds, clock, reporter)
    voice = _espeak_voice(config, reporter)
    return Devices("desktop", config, clock, reporter, camera, buttons, leds, screen, voice)


def _pi(config: DeviceConfig, clock: Clock, reporter: Reporter, pin_factory: Any) -> Devices:
    import dataclasses

    from crib_pi.devices.buttons.gpio import GpioButtons
    from crib_pi.devices.cameras.pi import PiCamera
    from crib_pi.devices.screen.pygame_ce import PygameScreen

    screen_config = config.screen
    if not screen_config.driver and not os.environ.get("SDL_VIDEODRIVER"):
        screen_config = dataclasses.replace(screen_config, driver="kmsdrm")
    screen: Screen = _try(
        reporter,
        lambda: PygameScreen(screen_config, reporter, _hints(config, False), default_size=(0, 0)),
        NullScreen,
    )
    buttons: Buttons = _try(
        reporter,
        lambda: GpioButtons(config.buttons, clock, reporter, pin_factory),
        lambda: ButtonSet(config.buttons, (), clock, reporter),
    )
    count = strip_count(config.leds)
    strip: LedStrip = _try(
        reporter, lambda: _pi_strip(config.leds, count, reporter), lambda: NullStrip(count)
    )
    leds = LedBoard(strip, config.leds, clock, reporter)
    camera: Camera = _try(reporter, lambda: PiCamera(config.camera, clock, reporter), NullCamera)
    voice = _espeak_voice(config, reporter)
    return Devices("pi", config, clock, reporter, camera, buttons, leds, screen, voice)


def _voice(config: DeviceConfig, speaker: Speaker, reporter: Reporter) -> Voice:
    v = config.voice
    return Voice(
        speaker,
        language=v.spoken_language(),
        volume=v.volume,
        enabled=v.enabled,
        reporter=reporter,
    )


def _espeak_voice(config: DeviceConfig, reporter: Reporter) -> VoiceLike:
    """espeak-ng on the sound card; the null voice when there is no sound card or no espeak-ng."""
    from crib_pi.voice.speakers import EspeakSpeaker, has_audio_output

    def build() -> Voice:
        if not has_audio_output():
            raise DeviceUnavailableError("voice", _("no sound card (see hardware/speaker.md)"))
        return _voice(config, EspeakSpeaker(speed=config.voice.speed), reporter)

    voice: VoiceLike = _try(reporter, build, NullVoice)
    return voice


def _pi_strip(config: LedConfig, count: int, reporter: Reporter) -> LedStrip:
    driver = config.driver
    if driver == "none":
        return NullStrip(count)
    if driver == "auto":
        driver = "pi5neo" if "raspberry pi 5" in on_a_pi().lower() else "ws281x"
    if driver == "pi5neo":
        from crib_pi.devices.leds.pi5neo import Pi5NeoStrip

        strip = Pi5NeoStrip(config, count)
        if strip.too_long_for_default_buffer:
            reporter.problem(
                "leds",
                _(
                    "{count} LEDs need more than spidev's default 4096-byte buffer:"
                    " add spidev.bufsiz=32768 to the kernel command line"
                ).format(count=count),
            )
        return strip
    from crib_pi.devices.leds.ws281x import Ws281xStrip

    return Ws281xStrip(config, count)

"""Device settings: typed, checked before use, unknown keys rejected by name.

The settings live in the ``[devices]`` table of a TOML file (``CRIB_PI_CONFIG`` names it) or
come as a plain mapping from the app. Every section has defaults that suit the wiring in
``docs/devices.md``, so an empty config is a working one.
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from crib_pi.devices.errors import DeviceConfigError
from crib_pi.i18n import _, current_language
from crib_pi.known_keys import reject_unknown

BACKENDS = ("pi", "desktop", "mock")
LED_DRIVERS = ("auto", "ws281x", "pi5neo", "none")
VOICE_LANGUAGES = ("en", "fr")
BUTTON_NAMES = ("go", "confirm", "undo", "go1", "go2", "go3", "go4")
RGB = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class ButtonSpec:
    """One button: its GPIO pin (BCM number, wired to ground; -1 in TOML for none), its keys
    on a laptop, and its gestures.

    ``double`` makes a single press wait ``double_s`` for a possible second one, so only buttons
    that mean something on a double press pay that delay. ``repeat`` sends ``repeat`` events
    while held (hold Undo to undo more).
    """

    name: str
    pin: int | None = None
    keys: tuple[str, ...] = ()
    double: bool = False
    repeat: bool = False


DEFAULT_BUTTONS: tuple[ButtonSpec, ...] = (
    ButtonSpec("go", 17, ("space", "g")),
    ButtonSpec("confirm", 27, ("return", "c"), double=True),
    ButtonSpec("undo", 22, ("backspace", "u"), repeat=True),
    ButtonSpec("go1", None, ("1",)),
    ButtonSpec("go2", None, ("2",)),
    ButtonSpec("go3", None, ("3",)),
    ButtonSpec("go4", None, ("4",)),
)


@dataclass(frozen=True, slots=True)
class ButtonsConfig:
    """Timing of the button logic (seconds) and the buttons themselves."""

    debounce_s: float = 0.02
    hold_s: float = 0.8
    double_s: float = 0.35
    repeat_s: float = 0.4
    stuck_s: float = 10.0
    buttons: tuple[ButtonSpec, ...] = DEFAULT_BUTTONS

    def spec(self, name: str) -> ButtonSpec:
        for spec in self.buttons:
            if spec.name == name:
                return spec
        raise DeviceConfigError(_("no button named {name!r}").format(name=name))


@dataclass(frozen=True, slots=True)
class LedConfig:
    """The strip, its power budget and how the 121-hole board is laid along it.

    ``tracks`` 0 means one track per side of the game; ``count`` 0 means exactly the LEDs the
    layout needs. ``row_length`` 0 means each track is one straight row.
    """

    driver: str = "auto"
    count: int = 0
    pin: int = 10  # SPI0 MOSI: rpi_ws281x drives it without root (PWM on 18 needs /dev/mem)
    dma: int = 10
    channel: int = 0
    freq_hz: int = 800_000
    invert: bool = False
    spi_device: str = "/dev/spidev0.0"
    spi_khz: int = 800
    brightness: float = 1.0
    max_amps: float = 2.0
    ma_per_channel: float = 20.0
    idle_ma_per_led: float = 0.0
    holes: int = 121
    tracks: int = 0
    leds_per_track: int = 121
    shared_track: bool = False
    row_length: int = 0
    serpentine: bool = False
    reversed_rows: tuple[int, ...] = ()
    start_offset: int = 0
    track_gap: int = 0
    back_level: float = 0.2
    frame_s: float = 0.03
    colours: tuple[RGB, ...] = ((255, 40, 20), (20, 100, 255), (40, 220, 50))


@dataclass(frozen=True, slots=True)
class ScreenConfig:
    """``size`` (0, 0) means the whole display, full screen; ``driver`` is SDL's video driver."""

    size: tuple[int, int] = (0, 0)
    fullscreen: bool = False
    driver: str = ""


@dataclass(frozen=True, slots=True)
class CameraConfig:
    """``device`` is a V4L2 index (``"0"``) or a path or a video file for cv2 on a laptop."""

    device: str = "0"
    width: int = 1280
    height: int = 720
    lock_exposure: bool = False


@dataclass(frozen=True, slots=True)
class VoiceConfig:
    """The spoken counts: on or off, ``volume`` 0 to 1, ``language`` ``en`` or ``fr`` (""
    speaks the table's language), ``speed`` in words a minute (espeak-ng's ``-s``)."""

    enabled: bool = True
    volume: float = 0.7
    language: str = ""
    speed: int = 160

    def spoken_language(self) -> str:
        """The language said aloud: the voice's own, else the table's (config, --lang, LANG)."""
        return self.language or current_language()


@dataclass(frozen=True, slots=True)
class DeviceConfig:
    """All device settings; ``backend`` "" means ``CRIB_PI_DEVICES`` or a guess from the machine."""

    backend: str = ""
    buttons: ButtonsConfig = field(default_factory=ButtonsConfig)
    leds: LedConfig = field(default_factory=LedConfig)
    screen: ScreenConfig = field(default_factory=ScreenConfig)
    camera: CameraConfig = field(default_factory=CameraConfig)
    voice: VoiceConfig = field(default_factory=VoiceConfig)

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> DeviceConfig:
        """Read the ``[devices]`` table; raise ``DeviceConfigError`` naming any bad key."""
        reject_unknown(
            data,
            ("backend", "buttons", "leds", "screen", "camera", "voice"),
            "devices.",
            DeviceConfigError,
        )
        backend = _convert("devices.backend", data.get("backend", ""), "")
        if backend not in ("", *BACKENDS):
            raise DeviceConfigError(
                _("devices.backend {backend!r} is not one of {BACKENDS}").format(
                    backend=backend, BACKENDS=BACKENDS
                )
            )
        config = cls(
            backend=backend,
            buttons=_buttons(_table(data, "buttons")),
            leds=_flat(LedConfig, _table(data, "leds"), "devices.leds"),
            screen=_flat(ScreenConfig, _table(data, "screen"), "devices.screen"),
            camera=_flat(CameraConfig, _table(data, "camera"), "devices.camera"),
            voice=_flat(VoiceConfig, _table(data, "voice"), "devices.voice"),
        )
        _check(config)
        return config


def load_config(path: str | os.PathLike[str] | None = None) -> DeviceConfig:
    """The config in ``path`` (or ``CRIB_PI_CONFIG``), or the defaults when neither is given.

    A file with a ``[devices]`` table uses that table; a file without one is all device settings.
    """
    chosen = path if path is not None else os.environ.get("CRIB_PI_CONFIG") or None
    if chosen is None:
        return DeviceConfig()
    try:
        with Path(chosen).open("rb") as handle:
            data = tomllib.load(handle)
    except tomllib.TOMLDecodeError as exc:
        raise DeviceConfigError(f"{chosen}: {exc}") from exc
    except UnicodeDecodeError as exc:
        raise DeviceConfigError(
            _("{chosen}: not UTF-8 text (byte {start}), so not TOML").format(
                chosen=chosen, start=exc.start
            )
        ) from None
    except RecursionError:
        raise DeviceConfigError(
            _("{chosen}: nested too deeply to be a configuration").format(chosen=chosen)
        ) from None
    app_tables = ("game", "players", "session", "store")
    section = data.get("devices", {} if any(k in data for k in app_tables) else data)
    if not isinstance(section, Mapping):
        raise DeviceConfigError(_("{chosen}: [devices] is not a table").format(chosen=chosen))
    return DeviceConfig.from_mapping(section)


def _table(data: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, Mapping):
        raise DeviceConfigError(_("devices.{key} is not a table").format(key=key))
    return value


def _flat(cls: Any, data: Mapping[str, Any], where: str) -> Any:
    defaults = cls()
    names = tuple(f.name for f in dataclasses.fields(cls))
    reject_unknown(data, names, f"{where}.", DeviceConfigError)
    changes = {k: _convert(f"{where}.{k}", v, getattr(defaults, k)) for k, v in data.items()}
    return dataclasses.replace(defaults, **changes)


def _convert(key: str, value: Any, default: Any) -> Any:
    """Check ``value`` against the type of the default, converting lists to tuples."""
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise DeviceConfigError(
                _("{key} = {value!r} is not true or false").format(key=key, value=value)
            )
        return value
    if isinstance(default, int):
        if isinstance(value, bool) or not isinstance(value, int):
            raise DeviceConfigError(
                _("{key} = {value!r} is not a whole number").format(key=key, value=value)
            )
        return value
    if isinstance(default, float):
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise DeviceConfigError(
                _("{key} = {value!r} is not a number").format(key=key, value=value)
            )
        return float(value)
    if isinstance(default, str):
        if isinstance(value, int) and not isinstance(value, bool):
            return str(value)
        if not isinstance(value, str):
            raise DeviceConfigError(_("{key} = {value!r} is not text").format(key=key, value=value))
        return value
    if isinstance(default, tuple):
        if not isinstance(value, list | tuple):
            raise DeviceConfigError(
                _("{key} = {value!r} is not a list").format(key=key, value=value)
            )
        sample = default[0] if default else 0
        return tuple(_convert(f"{key}[{i}]", v, sample) for i, v in enumerate(value))
    raise DeviceConfigError(
        _("{key} cannot be set").format(key=key)
    )  # pragma: no cover - no such field


_BUTTON_TIMINGS = ("debounce_s", "hold_s", "double_s", "repeat_s", "stuck_s")


def _buttons(data: Mapping[str, Any]) -> ButtonsConfig:
    reject_unknown(data, _BUTTON_TIMINGS + BUTTON_NAMES, "devices.buttons.", DeviceConfigError)
    defaults = ButtonsConfig()
    timings = {
        k: _convert(f"devices.buttons.{k}", data[k], getattr(defaults, k))
        for k in _BUTTON_TIMINGS
        if k in data
    }
    specs = []
    for spec in defaults.buttons:
        given = data.get(spec.name, {})
        if not isinstance(given, Mapping):
            raise DeviceConfigError(
                _("devices.buttons.{name} is not a table").format(name=spec.name)
            )
        where = f"devices.buttons.{spec.name}"
        reject_unknown(given, ("pin", "keys", "double", "repeat"), f"{where}.", DeviceConfigError)
        pin = given.get("pin", spec.pin)
        if pin is not None and (isinstance(pin, bool) or not isinstance(pin, int)):
            raise DeviceConfigError(
                _("{where}.pin = {pin!r} is not a GPIO number").format(where=where, pin=pin)
            )
        if pin == -1:  # TOML has no null: -1 says "not wired"
            pin = None
        keys = _convert(f"{where}.keys", given.get("keys", spec.keys), ("",))
        double = _convert(f"{where}.double", given.get("double", spec.double), False)
        repeat = _convert(f"{where}.repeat", given.get("repeat", spec.repeat), False)
        specs.append(ButtonSpec(spec.name, pin, keys, double, repeat))
    return dataclasses.replace(defaults, buttons=tuple(specs), **timings)


def _check(config: DeviceConfig) -> None:
    b = config.buttons
    for name in _BUTTON_TIMINGS:
        if getattr(b, name) <= 0:
            raise DeviceConfigError(
                _("devices.buttons.{name} must be more than 0 s").format(name=name)
            )
    if b.stuck_s <= b.hold_s:
        raise DeviceConfigError(_("devices.buttons.stuck_s must exceed hold_s"))
    if b.hold_s <= b.debounce_s or b.double_s <= b.debounce_s:
        raise DeviceConfigError(_("devices.buttons: hold_s and double_s must exceed debounce_s"))
    pins = [s.pin for s in b.buttons if s.pin is not None]
    for pin in pins:
        if not 0 <= pin <= 27:
            raise DeviceConfigError(_("GPIO {pin} is not a header GPIO (0 to 27)").format(pin=pin))
        if pins.count(pin) > 1:
            raise DeviceConfigError(_("GPIO {pin} is given to two buttons").format(pin=pin))
    led = config.leds
    if led.driver not in LED_DRIVERS:
        raise DeviceConfigError(
            _("devices.leds.driver {driver!r} is not one of {LED_DRIVERS}").format(
                driver=led.driver, LED_DRIVERS=LED_DRIVERS
            )
        )
    if led.pin in pins:
        raise DeviceConfigError(
            _("GPIO {pin} is both the LED data line and a button").format(pin=led.pin)
        )
    if not 0.0 < led.brightness <= 1.0:
        raise DeviceConfigError(_("devices.leds.brightness must be above 0 and at most 1"))
    if not 0.0 <= led.back_level < 1.0:
        raise DeviceConfigError(_("devices.leds.back_level must be 0 or more and below 1"))
    if led.max_amps <= 0 or led.ma_per_channel <= 0 or led.idle_ma_per_led < 0:
        raise DeviceConfigError(_("devices.leds: max_amps and ma_per_channel must be above 0"))
    if not led.colours or any(not all(0 <= c <= 255 for c in rgb) for rgb in led.colours):
        raise DeviceConfigError(_("devices.leds.colours must be [r, g, b] lists of 0 to 255"))
    if any(len(rgb) != 3 for rgb in led.colours):
        raise DeviceConfigError(_("devices.leds.colours must be [r, g, b] lists of three numbers"))
    s = config.screen
    if len(s.size) != 2 or (s.size != (0, 0) and min(s.size) < 64):
        raise DeviceConfigError(
            _("devices.screen.size {size} is not [width, height]").format(size=list(s.size))
        )
    v = config.voice
    if not 0.0 <= v.volume <= 1.0:
        raise DeviceConfigError(
            _("devices.voice.volume = {volume} must be 0 to 1").format(volume=v.volume)
        )
    if v.language and v.language not in VOICE_LANGUAGES:
        raise DeviceConfigError(
            _("devices.voice.language {language!r} is not one of {VOICE_LANGUAGES}").format(
                language=v.language, VOICE_LANGUAGES=VOICE_LANGUAGES
            )
        )
    if not 80 <= v.speed <= 450:
        raise DeviceConfigError(
            _("devices.voice.speed = {speed} must be 80 to 450 words a minute").format(
                speed=v.speed
            )
        )

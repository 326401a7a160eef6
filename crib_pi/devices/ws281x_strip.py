"""WS2812 strips on a Pi 4 or earlier through ``rpi_ws281x`` (PWM on GPIO 18 by default).

``rpi_ws281x`` from PyPI refuses a Pi 5 ("Hardware revision is not supported"); use
``pi5neo_strip`` there. Needs root or access to ``/dev/mem`` for PWM/PCM, or SPI on GPIO 10.
Not yet run on a real Pi by this project: it follows the library's ``PixelStrip`` API.
"""

from __future__ import annotations

from typing import Any

from crib_pi.devices.config import RGB, LedConfig
from crib_pi.devices.errors import DeviceUnavailableError


class Ws281xStrip:
    """The strip driven by rpi_ws281x's ``PixelStrip``; global brightness stays 255 here
    because ``PowerLimit`` already scaled the frame."""

    def __init__(self, config: LedConfig, count: int) -> None:
        try:
            from rpi_ws281x import PixelStrip
        except ImportError as exc:
            raise DeviceUnavailableError("leds", f"rpi_ws281x is not installed ({exc})") from exc
        self._count = count
        self._strip: Any = PixelStrip(
            count,
            config.pin,
            freq_hz=config.freq_hz,
            dma=config.dma,
            invert=config.invert,
            brightness=255,
            channel=config.channel,
        )
        try:
            self._strip.begin()
        except RuntimeError as exc:
            raise DeviceUnavailableError("leds", f"rpi_ws281x could not start: {exc}") from exc

    @property
    def count(self) -> int:
        return self._count

    def show(self, frame: tuple[RGB, ...]) -> None:
        if self._strip is None:
            return
        for i, (r, g, b) in enumerate(frame):
            self._strip.setPixelColorRGB(i, r, g, b)
        self._strip.show()

    def close(self) -> None:
        """All LEDs off, then free the DMA channel; safe to call twice."""
        strip, self._strip = self._strip, None
        if strip is None:
            return
        for i in range(self._count):
            strip.setPixelColorRGB(i, 0, 0, 0)
        strip.show()
        cleanup = getattr(strip, "_cleanup", None)
        if cleanup is not None:
            cleanup()

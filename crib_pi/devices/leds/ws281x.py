"""WS2812 strips on a Pi 4 or earlier through ``rpi_ws281x`` (SPI on GPIO 10 by default).

On GPIO 10 the library drives the strip through ``/dev/spidev0.0`` and ``/dev/gpiomem``, so the
service's ``crib-pi`` user (groups spi and gpio) needs no root; PWM (GPIO 18) and PCM (GPIO 21)
need ``/dev/mem``, i.e. root. ``rpi_ws281x`` refuses a Pi 5 ("Hardware revision is not
supported"); use ``leds.pi5neo`` there. Not yet run on a real Pi by this project: it follows the
library's ``PixelStrip`` API.

A failed ``begin()`` leaves the library's atexit cleanup registered, and that cleanup calls
``ws2811_fini`` on a half-made strip: a segfault as the process exits. So after a failed start
the cleanup is unregistered and the strip dropped.
"""

from __future__ import annotations

import atexit
import sys
from typing import Any

from crib_pi.devices.config import RGB, LedConfig
from crib_pi.devices.errors import DeviceUnavailableError
from crib_pi.i18n import _


class Ws281xStrip:
    """The strip driven by rpi_ws281x's ``PixelStrip``; global brightness stays 255 here
    because ``PowerLimit`` already scaled the frame."""

    def __init__(self, config: LedConfig, count: int) -> None:
        try:
            from rpi_ws281x import PixelStrip
        except ImportError as exc:
            raise DeviceUnavailableError(
                "leds", _("rpi_ws281x is not installed ({exc})").format(exc=exc)
            ) from exc
        except Exception as exc:  # a broken build: the table goes on without the strip
            raise DeviceUnavailableError(
                "leds", _("rpi_ws281x failed to import ({exc!r})").format(exc=exc)
            ) from exc
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
        except Exception as exc:
            _forget(self._strip)
            self._strip = None
            hint = ""
            if "not supported" in str(exc).lower():
                hint = _(' (a Pi 5 needs devices.leds.driver = "pi5neo")')
            raise DeviceUnavailableError(
                "leds", _("rpi_ws281x could not start: {exc}{hint}").format(exc=exc, hint=hint)
            ) from exc

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
            atexit.unregister(cleanup)


def _forget(strip: Any) -> None:
    """Make a strip whose ``begin()`` failed harmless at exit: its cleanup would dereference
    the library's unset pointers (``lib/ws2811.c``), so it is unregistered, never run."""
    cleanup = getattr(strip, "_cleanup", None)
    if cleanup is not None:
        atexit.unregister(cleanup)
    leds = getattr(strip, "_leds", None)
    if leds is None:
        return
    # Free the struct without ws2811_fini (the library's own module holds the SWIG wrapper).
    wrapper = getattr(sys.modules.get(type(strip).__module__), "ws", None)
    delete = getattr(wrapper, "delete_ws2811_t", None)
    if delete is not None:
        delete(leds)
    strip._leds = None  # a later _cleanup then does nothing

"""WS2812 strips on a Pi 5 through ``pi5neo`` (1.1 or later) over SPI (GPIO 10,
``/dev/spidev0.0``). Not yet run on a real Pi 5 by this project.

pi5neo sends 24 SPI bytes per LED; the default spidev buffer (4096 bytes) holds about 170
LEDs, so two 121-hole tracks need ``spidev.bufsiz=32768`` on the kernel command line.
``update_strip`` is called with ``sleep_duration=None``: the main loop must not stall 0.1 s
per frame.
"""

from __future__ import annotations

import os
from typing import Any

from crib_pi.devices.config import RGB, LedConfig
from crib_pi.devices.errors import DeviceUnavailableError
from crib_pi.i18n import _

SPI_BYTES_PER_LED = 24
DEFAULT_SPIDEV_BUFSIZ = 4096


class Pi5NeoStrip:
    """The strip driven by ``pi5neo.Pi5Neo``."""

    def __init__(self, config: LedConfig, count: int) -> None:
        try:
            from pi5neo import Pi5Neo
        except ImportError as exc:
            raise DeviceUnavailableError(
                "leds", _("pi5neo is not installed ({exc})").format(exc=exc)
            ) from exc
        except Exception as exc:  # e.g. a spidev built for another numpy or Python
            raise DeviceUnavailableError(
                "leds", _("pi5neo failed to import ({exc!r})").format(exc=exc)
            ) from exc
        self._count = count
        # Pi5Neo only prints when it cannot open the device, so check first.
        if not os.access(config.spi_device, os.R_OK | os.W_OK):
            raise DeviceUnavailableError(
                "leds",
                _(
                    "{device} cannot be opened: is SPI enabled (dtparam=spi=on) and"
                    " is the user in the spi group?"
                ).format(device=config.spi_device),
            )
        try:
            self._neo: Any = Pi5Neo(config.spi_device, count, config.spi_khz, quiet_mode=True)
        except Exception as exc:
            raise DeviceUnavailableError(
                "leds", _("pi5neo could not start ({exc!r})").format(exc=exc)
            ) from exc
        self.too_long_for_default_buffer = count * SPI_BYTES_PER_LED > DEFAULT_SPIDEV_BUFSIZ

    @property
    def count(self) -> int:
        return self._count

    def show(self, frame: tuple[RGB, ...]) -> None:
        if self._neo is None:
            return
        for i, (r, g, b) in enumerate(frame):
            self._neo.set_led_color(i, r, g, b)
        self._neo.update_strip(sleep_duration=None)

    def close(self) -> None:
        """All LEDs off and the SPI device closed; safe to call twice."""
        neo, self._neo = self._neo, None
        if neo is None:
            return
        neo.clear_strip()
        neo.update_strip(sleep_duration=None)
        neo.close()

"""Buttons on GPIO pins through gpiozero 2.x (lgpio on a Pi; ``MockFactory`` in tests).

gpiozero only reports line changes here: its own ``bounce_time`` and hold detection are left
off, because the mock factory ignores the first and times the second on the real clock; the
project's ``ButtonLogic`` does both over the injected clock instead.
"""

from __future__ import annotations

from typing import Any

from crib_pi.devices.buttons.base import ButtonSet
from crib_pi.devices.clock import Clock
from crib_pi.devices.config import ButtonsConfig
from crib_pi.devices.errors import DeviceUnavailableError
from crib_pi.devices.report import Reporter
from crib_pi.i18n import _


class GpioButtons(ButtonSet):
    """One gpiozero ``Button`` per configured pin, wired between the GPIO and ground."""

    def __init__(
        self,
        config: ButtonsConfig,
        clock: Clock,
        reporter: Reporter,
        pin_factory: Any = None,
    ) -> None:
        try:
            from gpiozero import Button
        except ImportError as exc:
            raise DeviceUnavailableError(
                "buttons", _("gpiozero is not installed ({exc})").format(exc=exc)
            ) from exc
        wired = [s for s in config.buttons if s.pin is not None]
        labels = {s.name: f"GPIO {s.pin}" for s in wired}
        super().__init__(config, [s.name for s in wired], clock, reporter, labels)
        self._devices: list[Any] = []
        for spec in wired:
            try:
                button = Button(spec.pin, pull_up=True, bounce_time=None, pin_factory=pin_factory)
            except Exception as exc:  # gpiozero raises many kinds: no chip, pin in use...
                unusable = _("GPIO {pin} cannot be used: {exc}").format(pin=spec.pin, exc=exc)
                reporter.problem(f"button {spec.name}", unusable)
                continue
            button.when_pressed = self._callback(spec.name, True)
            button.when_released = self._callback(spec.name, False)
            self._devices.append(button)
            if button.is_pressed:
                self.start_pressed(spec.name)
        if wired and not self._devices:
            raise DeviceUnavailableError("buttons", _("no button pin could be opened"))

    def _callback(self, name: str, pressed: bool) -> Any:
        def changed() -> None:
            self.edge(name, pressed)

        return changed

    def close(self) -> None:
        """Release the pins; safe to call twice."""
        devices, self._devices = self._devices, []
        for button in devices:
            button.close()
        super().close()

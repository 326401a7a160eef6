"""Keys standing in for buttons on a laptop (pygame keyboard events).

Only ``KEYDOWN`` / ``KEYUP`` are taken from pygame's queue; the screen takes the rest
(window close, resize). The keys go through the same ``ButtonLogic`` as the GPIO buttons, so
holding Backspace repeats Undo just like holding the real Undo button.
"""

from __future__ import annotations

from crib_pi.devices.buttons.base import ButtonSet
from crib_pi.devices.buttons.logic import ButtonEvent
from crib_pi.devices.clock import Clock
from crib_pi.devices.config import ButtonsConfig
from crib_pi.devices.errors import DeviceConfigError, DeviceUnavailableError
from crib_pi.devices.report import Reporter
from crib_pi.i18n import _


class KeyButtons(ButtonSet):
    """Buttons read from pygame key events; needs an initialised pygame display."""

    def __init__(self, config: ButtonsConfig, clock: Clock, reporter: Reporter) -> None:
        try:
            import pygame
        except ImportError as exc:
            raise DeviceUnavailableError(
                "buttons", _("pygame is not installed ({exc})").format(exc=exc)
            ) from exc
        if not pygame.display.get_init():
            raise DeviceUnavailableError(
                "buttons", _("keys need a pygame window, and none is open")
            )
        self._pygame = pygame
        self._keymap: dict[int, str] = {}
        for spec in config.buttons:
            for key in spec.keys:
                try:
                    code = pygame.key.key_code(key)
                except ValueError as exc:
                    raise DeviceConfigError(
                        _("devices.buttons.{name}.keys: {key!r} is not a key name").format(
                            name=spec.name, key=key
                        )
                    ) from exc
                if code in self._keymap:
                    raise DeviceConfigError(
                        _("key {key!r} is given to two buttons").format(key=key)
                    )
                self._keymap[code] = spec.name
        names = [s.name for s in config.buttons if s.keys]
        labels = {s.name: "key " + " / ".join(s.keys) for s in config.buttons if s.keys}
        super().__init__(config, names, clock, reporter, labels)

    def poll(self) -> list[ButtonEvent]:
        pygame = self._pygame
        if not self.closed and pygame.display.get_init():
            for event in pygame.event.get((pygame.KEYDOWN, pygame.KEYUP)):
                name = self._keymap.get(event.key)
                if name is not None:
                    self.edge(name, event.type == pygame.KEYDOWN)
        return super().poll()

"""Problems with devices, each told once.

A missing camera or a stuck button would otherwise flood the log on every frame or poll. The
reporter keeps every distinct problem, logs it once as a warning (to the ``crib_pi.devices``
logger), and lets the caller (the app, ``crib-pi board``) show the list to a person.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass

from crib_pi.i18n import N_, _

#: The devices' names as a person reads them (the reporter keeps the English as its key).
DEVICE_NAMES = {
    "camera": N_("camera"),
    "leds": N_("leds"),
    "screen": N_("screen"),
    "buttons": N_("buttons"),
    "voice": N_("voice"),
}


def device_name(device: str) -> str:
    """``device`` in the current language: ``camera`` is ``caméra``, ``button go`` is
    ``bouton go``; a name it does not know is shown as it is."""
    if device.startswith("button "):
        return _("button {name}").format(name=device.removeprefix("button "))
    return _(DEVICE_NAMES[device]) if device in DEVICE_NAMES else device


log = logging.getLogger("crib_pi.devices")
log.addHandler(logging.NullHandler())  # the app decides where problems are shown


@dataclass(frozen=True, slots=True)
class DeviceProblem:
    """One problem: which device, and what a person should know or do."""

    device: str
    message: str

    def __str__(self) -> str:
        said = _("{device}: {message}")
        return said.format(device=device_name(self.device), message=self.message)


class Reporter:
    """Collects device problems; the same (device, message) is recorded and logged once."""

    def __init__(self) -> None:
        self._problems: list[DeviceProblem] = []
        self._lock = threading.Lock()

    def problem(self, device: str, message: str) -> bool:
        """Record a problem; return True if it is new (and so was logged now)."""
        entry = DeviceProblem(device, message)
        with self._lock:
            if entry in self._problems:
                return False
            self._problems.append(entry)
        log.warning("%s", entry)
        return True

    @property
    def problems(self) -> tuple[DeviceProblem, ...]:
        with self._lock:
            return tuple(self._problems)

    def about(self, device: str) -> tuple[DeviceProblem, ...]:
        """The problems of one device (``"camera"``, ``"leds"``, ``"button go"``...)."""
        return tuple(p for p in self.problems if p.device == device)

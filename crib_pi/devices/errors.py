"""Device errors, split by cause.

A bad setting is the user's input, so it is a ``CribError`` (a ``ValueError``) naming the key.
Missing or broken hardware is not bad input: it is a ``DeviceUnavailableError``, which the
factory catches, reports once and replaces with a null device so the rest keeps working.
"""

from __future__ import annotations

from crib_pi.errors import CribError


class DeviceConfigError(CribError):
    """A device setting that cannot be used: an unknown key, a bad pin, a layout that overlaps."""


class DeviceUnavailableError(RuntimeError):
    """A device that is not there or does not answer: no library, no camera, no display."""

    def __init__(self, device: str, reason: str) -> None:
        super().__init__(f"{device}: {reason}")
        self.device = device
        self.reason = reason


class PegsNotationError(CribError):
    """``--pegs`` that cannot be read, e.g. ``"45-40"`` or a back peg ahead of the front."""

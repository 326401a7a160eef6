"""Vision errors, split by cause: a caller can tell a bad file from a bad model or profile."""

from __future__ import annotations

from crib_pi.errors import CribError


class VisionError(CribError):
    """Base of the errors raised by card recognition."""


class ImageReadError(VisionError):
    """An image file that is missing or cannot be decoded; names the path."""


class ModelError(VisionError):
    """The shipped recognition model is missing or does not load."""


class DeckProfileError(VisionError):
    """A deck profile that is missing, unreadable, or made for another model."""

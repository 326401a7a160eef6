"""The project's exceptions, split by cause so callers can react to each one.

All are ``ValueError`` subclasses: bad input is a value problem, and a caller that only
wants to say "no" can catch ``ValueError``.
"""

from __future__ import annotations

from crib_pi.i18n import _


class CribError(ValueError):
    """Base of every error crib-pi raises for bad input."""


class CardNotationError(CribError):
    """A card was written in a way that cannot be read, e.g. ``"1H"`` or ``"5X"``."""


class DuplicateCardError(CribError):
    """The same card appears twice where a single deck allows it once."""


class IllegalActionError(CribError):
    """A game action that the rules do not allow now; the game is left unchanged."""


class RecordError(CribError):
    """A game-record line that cannot be read or applied; names the line number."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(_("line {line}: {message}").format(line=line, message=message))
        self.line = line
        self.reason = message

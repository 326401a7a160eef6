"""One check for every settings table (the app's, devices', web's, the club's): a key that is
not a setting is refused by name, with the settings that are, so a typo is never ignored."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from crib_pi.errors import CribError
from crib_pi.i18n import _


def reject_unknown(
    table: Mapping[str, Any],
    allowed: Iterable[str],
    where: str,
    error: type[CribError] = CribError,
) -> None:
    """Raise ``error`` for the first key of ``table`` not in ``allowed``; ``where`` prefixes
    the key as the file spells it (``"web."``, ``"devices.buttons."``, or ``""``)."""
    known = sorted(allowed)
    for key in table:
        if key not in known:
            raise error(
                _("unknown setting {where}{key} (known: {known})").format(
                    where=where, key=key, known=", ".join(known)
                )
            )

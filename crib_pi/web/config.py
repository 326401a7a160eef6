"""``[web]`` in the config: whether the table serves its board, where, and in what language.

Off by default: a table says nothing on the network unless its owner asks. ``bind`` is the one
address it listens on (the Pi's LAN address, say); the default keeps it on the Pi itself.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from crib_pi.errors import CribError
from crib_pi.i18n import LANGUAGES, _
from crib_pi.known_keys import reject_unknown

KEYS = ("enabled", "bind", "port", "language", "clients", "banner")


@dataclass(frozen=True)
class WebConfig:
    """``clients`` bounds the pages open at once (each holds a connection); ``banner`` is a
    line shown above the board ("Table 4"), which a club's director may later replace."""

    enabled: bool = False
    bind: str = "127.0.0.1"
    port: int = 8121
    language: str = ""
    clients: int = 32
    banner: str = ""

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> WebConfig:
        """The ``[web]`` table checked key by key; a bad one is a ``CribError`` naming it."""
        reject_unknown(data, KEYS, "web.")
        defaults = cls()
        values: dict[str, Any] = {}
        kinds: dict[str, type] = {
            "enabled": bool,
            "bind": str,
            "port": int,
            "language": str,
            "clients": int,
            "banner": str,
        }
        for key, kind in kinds.items():
            value = data.get(key, getattr(defaults, key))
            if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
                raise CribError(
                    _("web.{key} = {value!r} has the wrong type").format(key=key, value=value)
                )
            values[key] = value
        try:
            ipaddress.ip_address(values["bind"])
        except ValueError:
            raise CribError(
                _(
                    "web.bind = {bind!r} is not an IP address (the table's LAN address, "
                    '"127.0.0.1" for this machine only, "0.0.0.0" for every network)'
                ).format(bind=values["bind"])
            ) from None
        if not 1 <= values["port"] <= 65535:
            raise CribError(_("web.port = {port} is not 1 to 65535").format(port=values["port"]))
        if values["language"] and values["language"] not in LANGUAGES:
            raise CribError(
                _(
                    'web.language = {language!r} is not one of {known} (or "" for the table\'s)'
                ).format(language=values["language"], known=", ".join(LANGUAGES))
            )
        if not 1 <= values["clients"] <= 1000:
            raise CribError(
                _("web.clients = {clients} is not 1 to 1000").format(clients=values["clients"])
            )
        if len(values["banner"]) > 200:
            raise CribError(_("web.banner is longer than 200 characters"))
        return cls(**values)

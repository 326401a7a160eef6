"""The ``[club]`` section of the config: where the club's broker is and who this machine is.

[club]
club = "friday"          # the club's name (its topics: crib/<club>/...)
broker = "192.168.1.10"  # the Mosquitto broker's address
port = 1883
table = "4"              # this table's name ("" on the director's machine)
user = "table-4"         # this machine's broker user and password (crib-pi club init)
password = "..."
key = "..."              # the club's key: a table takes only pairings signed with it
tls_ca = ""              # a CA certificate file: talk TLS to the broker
web = ""                 # "address:port" of the page (standings, or the table's pairing)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from crib_pi.errors import CribError
from crib_pi.i18n import _
from crib_pi.known_keys import reject_unknown

KEYS = ("club", "broker", "port", "table", "user", "password", "key", "tls_ca", "web")


@dataclass(frozen=True, slots=True)
class ClubConfig:
    club: str = ""
    broker: str = "localhost"
    port: int = 1883
    table: str = ""
    user: str = ""
    password: str = ""
    key: str = ""
    tls_ca: str = ""
    web: str = ""

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> ClubConfig:
        reject_unknown(data, KEYS, "club.")
        values: dict[str, Any] = {}
        for name in KEYS:
            if name not in data:
                continue
            value = data[name]
            want = int if name == "port" else str
            if not isinstance(value, want) or isinstance(value, bool):
                raise CribError(
                    _("club.{key} = {value!r} has the wrong type").format(key=name, value=value)
                )
            values[name] = value
        if not 0 < values.get("port", 1883) < 65536:
            raise CribError(_("club.port = {port} is not a port").format(port=values["port"]))
        return cls(**values)

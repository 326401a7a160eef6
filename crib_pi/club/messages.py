"""What travels over the broker: topics, a table's record events, the director's pairings and
acknowledgements, each checked on arrival.

A record event carries consecutive lines of one table record from a sequence number, so each
line's id is (table, record, seq): the director stores a line once, whatever repeats. The
director's messages are signed with the club's key (HMAC-SHA256): the broker's ACL already lets
only the director write them, and a table still takes a pairing only when the club's key
signed it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from dataclasses import dataclass
from typing import Any

from crib_pi.errors import CribError
from crib_pi.i18n import _

PREFIX = "crib"
NAME = re.compile(r"[A-Za-z0-9_-]{1,40}")
MAX_MESSAGE = 1_000_000
MAX_LINES = 500
MAX_LINE = 20_000


class MessageError(CribError):
    """A message that cannot be used: says which topic and why; it is never counted."""


def check_name(text: str, what: str) -> str:
    if not isinstance(text, str) or NAME.fullmatch(text) is None:
        raise CribError(
            _("{what} {text!r} must be 1 to 40 letters, digits, - or _").format(
                what=what, text=text
            )
        )
    return text


def topic(club: str, table: str, kind: str) -> str:
    """``crib/<club>/table/<table>/<kind>``: kind is events, pairing or ack."""
    return f"{PREFIX}/{club}/table/{table}/{kind}"


def parse_topic(club: str, text: str) -> tuple[str, str] | None:
    """(table, kind) of one of the club's topics, or None."""
    parts = text.split("/")
    if len(parts) != 5 or parts[:2] != [PREFIX, club] or parts[2] != "table":
        return None
    return parts[3], parts[4]


@dataclass(frozen=True, slots=True)
class Event:
    """Lines ``seq``.. of a table's record ``record``, played for ``round``; ``final`` is the
    record's whole length once the table has finished it."""

    table: str
    round: int
    record: int
    seq: int
    lines: tuple[str, ...]
    final: int | None = None

    def to_bytes(self, club: str) -> bytes:
        body = {
            "club": club,
            "table": self.table,
            "round": self.round,
            "record": self.record,
            "seq": self.seq,
            "lines": list(self.lines),
            "final": self.final,
        }
        return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()


def _load(payload: bytes, where: str) -> dict[str, Any]:
    if len(payload) > MAX_MESSAGE:
        raise MessageError(
            _("{where}: a message of {size} bytes is too long").format(
                where=where, size=len(payload)
            )
        )
    try:
        data = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise MessageError(_("{where}: not a JSON message").format(where=where)) from None
    if not isinstance(data, dict):
        raise MessageError(_("{where}: not a JSON object").format(where=where))
    return data


def _int(data: dict[str, Any], key: str, where: str, low: int = 0) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value < 2**53:
        raise MessageError(
            _("{where}: {key} = {value!r} is not a whole number of {low} or more").format(
                where=where, key=key, value=value, low=low
            )
        )
    return value


def parse_event(club: str, table: str, payload: bytes) -> Event:
    """A table's event as published on its own topic; anything else is a ``MessageError``."""
    where = topic(club, table, "events")
    data = _load(payload, where)
    if data.get("club") != club:
        raise MessageError(_("{where}: the message is for another club").format(where=where))
    if data.get("table") != table:
        raise MessageError(
            _("{where}: the message names table {other!r}, not the topic's").format(
                where=where, other=data.get("table")
            )
        )
    lines = data.get("lines")
    if (
        not isinstance(lines, list)
        or not 1 <= len(lines) <= MAX_LINES
        or not all(isinstance(x, str) and len(x) <= MAX_LINE for x in lines)
    ):
        raise MessageError(
            _("{where}: lines must be a list of 1 to {n} record lines").format(
                where=where, n=MAX_LINES
            )
        )
    final = data.get("final")
    if final is not None:
        final = _int(data, "final", where, 1)
    return Event(
        table,
        _int(data, "round", where, 1),
        _int(data, "record", where, 1),
        _int(data, "seq", where),
        tuple(lines),
        final,
    )


def sign(key: str, body: dict[str, Any]) -> bytes:
    """``body`` with its signature, as sent."""
    text = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    mac = hmac.new(key.encode(), text.encode(), hashlib.sha256).hexdigest()
    return json.dumps({**body, "sig": mac}, ensure_ascii=False, separators=(",", ":")).encode()


def verify(key: str, club: str, table: str, kind: str, payload: bytes) -> dict[str, Any]:
    """A director's message for this table, signed with the club's key; else ``MessageError``."""
    where = topic(club, table, kind)
    data = _load(payload, where)
    mac = data.pop("sig", None)
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    good = hmac.new(key.encode(), text.encode(), hashlib.sha256).hexdigest()
    if not isinstance(mac, str) or not hmac.compare_digest(mac, good):
        raise MessageError(
            _("{where}: not signed by this club's director; ignored").format(where=where)
        )
    if data.get("club") != club or data.get("table") != table or data.get("kind") != kind:
        raise MessageError(
            _("{where}: signed for another club, table or purpose; ignored").format(where=where)
        )
    return data

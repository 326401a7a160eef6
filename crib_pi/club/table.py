"""A table's link to its club: publishes its game records from its own game database as they
are written and shows the pairing the director sends.

The table's database (``crib_pi.store``) is the outbox: nothing is kept only in memory, so a
table off the network keeps playing and sends everything when it is back. What the director
has acknowledged is kept in a small file of its own beside it; what is not acknowledged after
a while is sent again (the director stores a repeat once). A pairing is taken only when the
club's key signed it.
"""

from __future__ import annotations

import json
import random
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path

from crib_pi.club.config import ClubConfig
from crib_pi.club.link import Link
from crib_pi.club.messages import MAX_LINES, Event, MessageError, parse_topic, topic, verify
from crib_pi.errors import CribError
from crib_pi.i18n import _
from crib_pi.store import GameStore

STATE = """
CREATE TABLE IF NOT EXISTS rounds (round INTEGER PRIMARY KEY, players TEXT NOT NULL,
    since INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS acked (record INTEGER PRIMARY KEY, lines INTEGER NOT NULL);
"""


class TableLink:
    """``games``: the table's game database; ``state``: the link's own file."""

    def __init__(
        self,
        config: ClubConfig,
        games: GameStore,
        state: Path,
        *,
        resend_after: float = 3.0,
        chaos: random.Random | None = None,
        say: Callable[[str], None] = print,
    ) -> None:
        if not config.club or not config.table or not config.key:
            raise CribError(_("[club] needs club, table and key for a table to join its club"))
        self.config = config
        self.games = games
        self.say = say
        self.chaos = chaos  # tests: split, reorder and repeat what is sent
        self.resend_after = resend_after
        self.db = sqlite3.connect(str(state), isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.executescript(STATE)
        self.rounds = {
            int(r): (json.loads(p), int(s))
            for r, p, s in self.db.execute("SELECT round, players, since FROM rounds")
        }
        self.acked = {int(r): int(n) for r, n in self.db.execute("SELECT * FROM acked")}
        self.sent = dict(self.acked)
        self.closed: set[int] = set()  # records whose end the director has acknowledged
        self.progress = time.monotonic()
        self.changed = threading.Event()
        c, t = config.club, config.table
        self.link: Link | None = None
        self.subscriptions = [topic(c, t, "pairing"), topic(c, t, "ack")]

    def connect(self) -> None:
        self.link = Link(
            self.config, f"crib-pi-{self.config.club}-table-{self.config.table}", self.subscriptions
        )

    def disconnect(self) -> None:
        if self.link is not None:
            self.link.close()
            self.link = None

    @property
    def pairing(self) -> tuple[int, list[str]] | None:
        """The latest round and its players (empty: no game at this table this round)."""
        if not self.rounds:
            return None
        number = max(self.rounds)
        return number, self.rounds[number][0]

    def caption(self) -> str:
        """What the table's screen says: "Table 4: Alice v Bob"."""
        pairing = self.pairing
        if pairing is None:
            return _("Table {table}: waiting for the director's pairing").format(
                table=self.config.table
            )
        number, players = pairing
        if not players:
            return _("Table {table}: no game in round {round}").format(
                table=self.config.table, round=number
            )
        return _("Table {table}: {a} v {b}").format(
            table=self.config.table, a=players[0], b=players[1]
        )

    # one step of the loop ---------------------------------------------------------------------

    def step(self) -> None:
        if self.link is not None:
            for name, payload in self.link.drain(0.0):
                self._take(name, payload)
        if self.link is not None and self.link.connected:
            self._send()

    def _take(self, name: str, payload: bytes) -> None:
        where = parse_topic(self.config.club, name)
        if where is None or where[0] != self.config.table:
            return
        try:
            data = verify(self.config.key, self.config.club, self.config.table, where[1], payload)
        except MessageError as exc:
            self.say(str(exc))
            return
        if where[1] == "pairing":
            number, players = data.get("round"), data.get("players")
            if not isinstance(number, int) or not isinstance(players, list):
                return
            if number not in self.rounds:
                since = max((r.id for r in self.games.records()), default=0) + 1
                self.rounds[number] = ([str(p) for p in players], since)
                self.db.execute(
                    "INSERT OR REPLACE INTO rounds VALUES (?, ?, ?)",
                    (number, json.dumps(self.rounds[number][0]), since),
                )
                self.say(self.caption())
                self.changed.set()
        elif where[1] == "ack":
            acked = data.get("acked")
            if not isinstance(acked, dict):
                return
            moved = False
            for record, lines in acked.items():
                if not (str(record).isdigit() and isinstance(lines, int)):
                    continue
                if lines > self.acked.get(int(record), 0):
                    self.acked[int(record)] = lines
                    self.db.execute(
                        "INSERT OR REPLACE INTO acked VALUES (?, ?)", (int(record), lines)
                    )
                    moved = True
            finals = data.get("final")
            if isinstance(finals, list):
                self.closed.update(int(r) for r in finals if isinstance(r, int))
            if moved:
                self.progress = time.monotonic()

    def round_of(self, record: int) -> int | None:
        """The round a record was played for: the last pairing received before it began."""
        rounds = [n for n, (players, since) in self.rounds.items() if since <= record and players]
        return max(rounds) if rounds else None

    def _send(self) -> None:
        assert self.link is not None
        now = time.monotonic()
        stale = now - self.progress > self.resend_after
        for stored in self.games.records():
            number = self.round_of(stored.id)
            if number is None or (stored.lines < 2 and not stored.finished):
                continue  # no round's, or only set up (crib-pi run sets a game up afresh)
            acked = self.acked.get(stored.id, 0)
            open_end = stored.finished and stored.id not in self.closed
            if open_end:  # the end is not acknowledged: its last line goes again with it
                acked = min(acked, stored.lines - 1)
            if stale and self.sent.get(stored.id, 0) > acked:
                self.sent[stored.id] = acked  # not acknowledged in time: send again
            sent = self.sent.get(stored.id, acked)
            if sent >= stored.lines:
                continue
            lines = self.games.lines(stored.id)[sent:]
            final = stored.lines if stored.finished else None
            for start in range(0, len(lines), MAX_LINES):
                chunk = lines[start : start + MAX_LINES]
                end = final if (final and sent + start + len(chunk) == final) else None
                self._publish(
                    Event(self.config.table, number, stored.id, sent + start, tuple(chunk), end)
                )
            self.sent[stored.id] = stored.lines
        if stale:
            self.progress = now

    def _publish(self, event: Event) -> None:
        assert self.link is not None
        name = topic(self.config.club, self.config.table, "events")
        if self.chaos is None or len(event.lines) < 2:
            self.link.publish(name, event.to_bytes(self.config.club))
            return
        cut = self.chaos.randint(1, len(event.lines) - 1)  # two pieces, the second sent first
        first = Event(event.table, event.round, event.record, event.seq, event.lines[:cut], None)
        second = Event(
            event.table, event.round, event.record, event.seq + cut, event.lines[cut:], event.final
        )
        pieces = [second, first, second] if self.chaos.random() < 0.5 else [second, first]
        for piece in pieces:
            self.link.publish(name, piece.to_bytes(self.config.club))

    def run(self, stop: threading.Event, every: float = 0.1) -> None:
        while not stop.is_set():
            self.step()
            stop.wait(every)

    def close(self) -> None:
        self.disconnect()
        self.db.close()

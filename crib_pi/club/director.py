"""The director: takes in the tables' record lines, checks each finished record by replaying it
through the rules engine, scores it by the club's rules, pairs rounds and tells each table.

Everything it learns is committed to the tournament file before it is acknowledged to a table,
so a director killed and started again carries on from its file: the tables send again what
was not acknowledged and a repeated line is stored once. A record that does not replay, names
other players than the pairing, or would count a pairing twice is refused and reported (kept
in the file, shown on the standings page), never counted.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from crib_pi.club.messages import Event, MessageError, parse_event, parse_topic, sign, topic
from crib_pi.club.pairing import pair, ranked
from crib_pi.club.store import ClubStore
from crib_pi.errors import CribError
from crib_pi.i18n import _
from crib_pi.records import replay_lines

Publish = Callable[[str, bytes, bool], None]


@dataclass
class Board:
    """The latest standings as JSON, for the web page's readers (any thread)."""

    data: dict[str, Any] = field(default_factory=dict)
    version: int = 0
    changed: threading.Condition = field(default_factory=threading.Condition)

    def set(self, data: dict[str, Any]) -> None:
        with self.changed:
            self.data = data
            self.version += 1
            self.changed.notify_all()

    def wait(self, version: int, timeout: float) -> tuple[int, dict[str, Any]]:
        with self.changed:
            self.changed.wait_for(lambda: self.version != version, timeout)
            return self.version, self.data


class Director:
    def __init__(
        self,
        store: ClubStore,
        key: str,
        publish: Publish,
        *,
        rounds: int = 0,
        say: Callable[[str], None] = print,
    ) -> None:
        self.store = store
        self.club = store.club
        self.key = key
        self.publish = publish
        self.rounds = rounds  # pair automatically up to this many rounds (0: by hand)
        self.say = say
        self.board = Board()
        self.have: dict[tuple[str, int], set[int]] = {}
        self.prefix: dict[str, dict[int, int]] = {}  # table -> record -> lines without a gap
        self.pairs: dict[tuple[int, str], tuple[str, str]] = {}  # made once, never changed
        self.records: dict[tuple[str, int], list[Any]] = {}  # [round, final, status]
        for t, r, n, f in store.db.execute("SELECT tbl, record, round, final FROM records"):
            self.records[(str(t), int(r))] = [int(n), f, "open"]
        for t, r, status in store.db.execute("SELECT tbl, record, status FROM records"):
            self.records[(str(t), int(r))][2] = str(status)
        self.published_round = 0
        self.file_version = -1
        self.lines_taken = 0
        for table, record, seq in store.db.execute("SELECT tbl, record, seq FROM events"):
            self.have.setdefault((str(table), int(record)), set()).add(int(seq))
        whole = [key_ for key_ in self.have if self._advance(key_)]
        if whole:  # a file from an older run, whole but never settled: settle it now
            store.begin()
            for table, record in whole:
                self._settle(table, record)
            store.commit()

    # taking in ------------------------------------------------------------------------------

    def absorb(self, messages: list[tuple[str, bytes]]) -> None:
        """Take in a batch of messages in one transaction, then acknowledge and publish."""
        touched: set[str] = set()
        complete: list[tuple[str, int]] = []
        self.store.begin()
        try:
            for name, payload in messages:
                where = parse_topic(self.club, name)
                if where is None or where[1] != "events":
                    continue
                try:
                    event = parse_event(self.club, where[0], payload)
                    self._take(event, complete)
                    touched.add(event.table)
                except MessageError as exc:
                    self._report(where[0], str(exc))
            for table, record in dict.fromkeys(complete):  # once each, in order
                self._settle(table, record)
            self.store.commit()
        except BaseException:
            if self.store.db.in_transaction:
                self.store.db.execute("ROLLBACK")
            raise
        for table in sorted(touched):
            self._ack(table)
        self.step()
        if messages:
            self.refresh()

    def _take(self, event: Event, complete: list[tuple[str, int]]) -> None:
        pairing = self._pairing(event.round, event.table)
        if pairing is None:
            raise MessageError(
                _(
                    "table {table} has no game in round {round}; its record {record} is not counted"
                ).format(table=event.table, round=event.round, record=event.record)
            )
        known = self.records.get((event.table, event.record))
        if known is not None and known[0] != event.round:
            raise MessageError(
                _(
                    "table {table} record {record} was sent for round {first}, now {round}; "
                    "the later lines are not counted"
                ).format(table=event.table, record=event.record, first=known[0], round=event.round)
            )
        final = event.final
        if final is not None and known is not None and known[1] not in (None, final):
            raise MessageError(
                _("table {table} record {record} said it ends at {first}, now at {final}").format(
                    table=event.table, record=event.record, first=known[1], final=final
                )
            )
        if final is not None and event.seq + len(event.lines) > final:
            raise MessageError(
                _("table {table} record {record}: lines past its end ({final})").format(
                    table=event.table, record=event.record, final=final
                )
            )
        self.store.note_record(event.table, event.record, event.round, final)
        row = self.records.setdefault((event.table, event.record), [event.round, None, "open"])
        if row[1] is None:
            row[1] = final
        self.store.add_lines(event.table, event.record, event.seq, event.lines)
        key = (event.table, event.record)
        seqs = self.have.setdefault(key, set())
        before = len(seqs)
        seqs.update(range(event.seq, event.seq + len(event.lines)))
        self.lines_taken += len(seqs) - before
        if self._advance(key):
            complete.append(key)

    def _advance(self, key: tuple[str, int]) -> bool:
        """Move the record's gap-free length on; True when it is whole and still open."""
        seqs = self.have.get(key, set())
        done = self.prefix.setdefault(key[0], {})
        n = done.get(key[1], 0)
        while n in seqs:
            n += 1
        done[key[1]] = n
        row = self.records.get(key)
        return row is not None and row[2] == "open" and row[1] is not None and n >= row[1]

    def _settle(self, table: str, record: int) -> None:
        """A whole record: replay it through the rules engine and count it, or refuse it."""
        row = self.records[(table, record)]
        round_, final = int(row[0]), int(row[1])
        lines = [line for seq, line in self.store.lines(table, record) if seq < final]
        pairing = self._pairing(round_, table)
        assert pairing is not None
        try:
            replay = replay_lines(lines)
            options = replay.game.options
            if options.players != 2:
                raise CribError(_("a club game is for two players"))
            if options.names and set(options.names) != set(pairing):
                raise CribError(
                    _("it names {names}, not the pairing's {a} v {b}").format(
                        names=_(" v ").join(options.names), a=pairing[0], b=pairing[1]
                    )
                )
            if not replay.game.results:
                raise CribError(_("it ends with no game won"))
            scores = replay.game.results[0].scores
            ordered = (scores[0], scores[1])
            if options.names and options.names[0] != pairing[0]:
                ordered = (scores[1], scores[0])
            self.store.rules.score(ordered, options.target)
            if not self.store.add_game(round_, table, record, ordered):
                raise CribError(
                    _("round {round} at table {table} is counted already").format(
                        round=round_, table=table
                    )
                )
        except CribError as exc:
            self.store.set_status(table, record, "refused", str(exc))
            row[2] = "refused"
            self._report(
                table,
                _("table {table} record {record} refused, not counted: {reason}").format(
                    table=table, record=record, reason=exc
                ),
            )
            return
        self.store.set_status(table, record, "scored")
        row[2] = "scored"

    def _pairing(self, round_: int, table: str) -> tuple[str, str] | None:
        if (round_, table) not in self.pairs:
            found = self.store.pairing(round_, table)
            if found is None:
                return None
            self.pairs[(round_, table)] = found
        return self.pairs[(round_, table)]

    def _report(self, table: str, message: str) -> None:
        self.store.report(table, message)
        self.say(message)

    def _ack(self, table: str) -> None:
        acked = {str(r): n for r, n in self.prefix.get(table, {}).items()}
        finals = [r for r in self.prefix.get(table, {}) if self.records[(table, r)][1] is not None]
        body = {"club": self.club, "table": table, "kind": "ack", "acked": acked, "final": finals}
        self.publish(topic(self.club, table, "ack"), sign(self.key, body), True)

    def resume(self) -> None:
        """After a start or a reconnection: the round's pairings and every table's
        acknowledgements sent again (the broker may have lost them; a repeat is harmless)."""
        self.send_round()
        for table in self.store.tables():
            self._ack(table)
        self.refresh()

    # rounds ---------------------------------------------------------------------------------

    def pair_next(self) -> int:
        """Pair the next round (Swiss, no rematch, a bye for an odd number) and send it."""
        store = self.store
        current = store.current_round()
        if current and not store.round_done(current):
            raise CribError(
                _("round {round} is not finished; its games are still coming").format(round=current)
            )
        standings = store.standings()
        if len(standings) < 2:
            raise CribError(_("register at least two players first"))
        pairs, bye = pair(standings, store.met())
        tables = store.tables()
        if len(tables) < len(pairs):
            raise CribError(
                _("{pairs} games need {pairs} tables; {tables} are registered").format(
                    pairs=len(pairs), tables=len(tables)
                )
            )
        number = store.add_round([(t, a, b) for t, (a, b) in zip(tables, pairs, strict=False)], bye)
        self.send_round()
        self.refresh()
        return number

    def send_round(self) -> None:
        """Tell every table its pairing for the current round (retained: a table that joins
        late or comes back gets it too)."""
        number = self.store.current_round()
        if number == 0:
            return
        pairings = {t: (a, b) for _r, t, a, b in self.store.pairings(number)}
        for table in self.store.tables():
            players = list(pairings.get(table, ()))
            body = {
                "club": self.club,
                "table": table,
                "kind": "pairing",
                "round": number,
                "players": players,
            }
            self.publish(topic(self.club, table, "pairing"), sign(self.key, body), True)
        self.published_round = number

    def step(self) -> None:
        """What the file says to do now: a round paired by ``crib-pi club pair`` sent, the
        next round paired when the last is done (automatic pairing)."""
        version = self.store.db.execute("PRAGMA data_version").fetchone()[0]
        if version != self.file_version:  # another command wrote the file (a correction...)
            self.file_version = version
            self.refresh()
        current = self.store.current_round()
        if current != self.published_round:
            self.send_round()
            self.refresh()
        if (
            self.rounds
            and current < self.rounds
            and (current == 0 or self.store.round_done(current))
        ):
            self.pair_next()

    # the standings --------------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        store = self.store
        rows = []
        for rank, s in enumerate(ranked(store.standings()), start=1):
            rows.append(
                {
                    "rank": rank,
                    "name": s.name,
                    "points": s.points,
                    "spread": s.spread,
                    "games": s.games,
                    "wins": s.wins,
                    "byes": s.byes,
                }
            )
        current = store.current_round()
        games = (
            [
                {
                    "table": g.table,
                    "players": list(g.players),
                    "scores": list(g.scores) if g.scores else None,
                    "corrected": g.corrected,
                }
                for g in store.games(current)
            ]
            if current
            else []
        )
        byes = store.byes()
        return {
            "club": self.club,
            "round": current,
            "standings": rows,
            "games": games,
            "bye": byes.get(current),
            "corrections": store.corrections(),
            "problems": [
                {"at": at, "table": t, "message": m} for at, t, m in store.problems()[-10:]
            ],
            "at": time.time(),
        }

    def refresh(self) -> None:
        self.board.set(self.snapshot())


def as_json(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
